package dev.baton.home;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatonHomeTest {

    @TempDir
    Path temp;

    @Test
    void theTokenIsOneOwnerOnlyLineEndingInANewlineAndReadTheSameByEveryone() throws Exception {
        BatonHome home = new BatonHome(temp.resolve("state/baton"));

        String token = home.ensureToken();

        assertThat(Files.readString(home.tokenFile())).isEqualTo(token + "\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.tokenFile()))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.dir()))).isEqualTo("rwx------");
        assertThat(home.ensureToken()).isEqualTo(token);
        assertThat(new BatonHome(home.dir()).readToken()).contains(token);
    }

    @Test
    void startsThatMakeTheTokenAtTheSameMomentAllGoOnWithTheOneInTheFile() throws Exception {
        // Hooks and MCP servers start sidecars at once on a new home; a start that read a token the file no longer
        // holds would refuse every hook. Many rounds, since each race is over in microseconds.
        for (int round = 0; round < 40; round++) {
            BatonHome fresh = new BatonHome(temp.resolve("home-" + round));
            int starts = 8;
            java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(starts);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(starts);
            try {
                java.util.List<java.util.concurrent.Future<String>> tokens = new java.util.ArrayList<>();
                for (int i = 0; i < starts; i++) {
                    tokens.add(pool.submit(() -> {
                        together.await();
                        return fresh.ensureToken();
                    }));
                }
                String inFile = null;
                for (java.util.concurrent.Future<String> token : tokens) {
                    String got = token.get(30, java.util.concurrent.TimeUnit.SECONDS);
                    inFile = inFile == null ? fresh.readToken().orElseThrow() : inFile;
                    assertThat(got).as("round %d", round).isEqualTo(inFile);
                }
                try (var left = Files.list(fresh.dir())) {
                    assertThat(left.map(path -> path.getFileName().toString())).containsExactly("token");
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aKeptSqliteLibraryIsOwnerOnlyAndReplacesTheCopyOfAnotherVersion() throws Exception {
        BatonHome home = new BatonHome(temp.resolve("state/baton"));
        home.prepare();
        home.keepSqliteLibrary("3.1-Linux-amd64", new java.io.ByteArrayInputStream(new byte[] {1, 2, 3}));

        home.keepSqliteLibrary("3.2-Linux-amd64", new java.io.ByteArrayInputStream(new byte[] {4, 5}));

        assertThat(home.sqliteLibrary("3.2-Linux-amd64")).hasBinaryContent(new byte[] {4, 5});
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.sqliteLibrary("3.2-Linux-amd64"))))
                .isEqualTo("rw-------");
        assertThat(home.sqliteLibrary("3.1-Linux-amd64")).doesNotExist();
        try (var files = Files.list(home.dir())) {
            assertThat(files.map(file -> file.getFileName().toString())).containsExactly("sqlite-native-3.2-Linux-amd64");
        }
    }

    @Test
    void filesWithoutAFinalNewlineReadTheSame() throws Exception {
        BatonHome home = new BatonHome(temp);
        Files.writeString(home.tokenFile(), "abc");
        Files.writeString(home.endpointFile(), "127.0.0.1:4100");
        Files.writeString(home.pidFile(), "42");

        assertThat(home.readToken()).contains("abc");
        assertThat(home.readEndpointPort()).contains(4100);
        assertThat(home.readPid()).hasValue(42);
    }

    @Test
    void theEndpointAndPidAreWrittenAsLinesAndClearedTogether() throws Exception {
        BatonHome home = new BatonHome(temp);
        home.writeEndpoint(4242);
        home.writePid(77);

        assertThat(Files.readString(home.endpointFile())).isEqualTo("127.0.0.1:4242\n");
        assertThat(Files.readString(home.pidFile())).isEqualTo("77\n");
        home.clearRunningState();
        assertThat(home.readEndpoint()).isEmpty();
        assertThat(home.readPid()).isEmpty();
    }

    @Test
    void anEndpointThatIsNotLoopbackHasNoPort() throws Exception {
        BatonHome home = new BatonHome(temp);
        Files.writeString(home.endpointFile(), "10.0.0.1:80\n");

        assertThat(home.readEndpointPort()).isEmpty();
    }

    @Test
    void theDirectoryFollowsBatonHomeThenXdgStateHomeThenHome() {
        assertThat(BatonHome.fromEnvironment(Map.of("BATON_HOME", "/b", "HOME", "/h")).dir()).isEqualTo(Path.of("/b"));
        assertThat(BatonHome.fromEnvironment(Map.of("XDG_STATE_HOME", "/s", "HOME", "/h")).dir()).isEqualTo(Path.of("/s/baton"));
        assertThat(BatonHome.fromEnvironment(Map.of("HOME", "/h")).dir()).isEqualTo(Path.of("/h/.local/state/baton"));
    }
}
