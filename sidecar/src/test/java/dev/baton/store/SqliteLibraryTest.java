package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.support.SidecarProcess;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A started sidecar keeps SQLite's native library in its home, and later starts load that copy as it is. */
class SqliteLibraryTest {

    @TempDir Path home;

    @Test
    void aSecondStartMapsTheLibraryKeptInTheHomeAndUnpacksNoOther() throws IOException {
        try (SidecarProcess first = SidecarProcess.start(home)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> kept().size() == 1);
        }
        Path library = kept().get(0);
        assertThat(Files.getPosixFilePermissions(library)).isEqualTo(PosixFilePermissions.fromString("rw-------"));

        try (SidecarProcess second = SidecarProcess.start(home)) {
            assertThat(sqliteLibrariesMappedBy(second.pid())).containsExactly(library.toRealPath().toString());
        }
    }

    @Test
    void aDamagedCopyIsReplacedAndTheSidecarStillStarts() throws IOException {
        try (SidecarProcess first = SidecarProcess.start(home)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> kept().size() == 1);
        }
        Path library = kept().get(0);
        Files.writeString(library, "not a library");

        try (SidecarProcess second = SidecarProcess.start(home)) {
            assertThat(second.port()).isPositive();
            await().atMost(Duration.ofSeconds(30)).until(() -> kept().size() == 1 && Files.size(library) > 100_000);
        }
        try (SidecarProcess third = SidecarProcess.start(home)) {
            assertThat(sqliteLibrariesMappedBy(third.pid())).containsExactly(library.toRealPath().toString());
        }
    }

    private List<Path> kept() throws IOException {
        List<Path> kept = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(home, "sqlite-native-*")) {
            files.forEach(kept::add);
        }
        return kept;
    }

    /** Every file of SQLite's JNI library the process has mapped, as the kernel lists its mappings. */
    private static Set<String> sqliteLibrariesMappedBy(long pid) throws IOException {
        Set<String> mapped = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps"))) {
            int slash = line.indexOf('/');
            if (slash > 0 && (line.contains("sqlitejdbc") || line.contains("sqlite-native-"))) {
                mapped.add(line.substring(slash).trim());
            }
        }
        return mapped;
    }
}
