package dev.baton.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.state.BatonException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CanonicalPathTest {

    @TempDir Path dir;

    @Test
    void dotsAndDoubleDotsAreResolved() throws Exception {
        Path real = dir.toRealPath();
        assertThat(CanonicalPath.of(dir + "/a/./b/../c.txt", null)).isEqualTo(real + "/a/c.txt");
    }

    @Test
    void aRelativePathIsResolvedAgainstCwd() throws Exception {
        assertThat(CanonicalPath.of("src/App.java", dir.toString())).isEqualTo(dir.toRealPath() + "/src/App.java");
    }

    @Test
    void symlinksOfExistingParentsAreResolvedForFilesThatDoNotExistYet() throws Exception {
        Files.createDirectories(dir.resolve("real/sub"));
        Files.createSymbolicLink(dir.resolve("alias"), dir.resolve("real"));

        String viaLink = CanonicalPath.of(dir + "/alias/sub/New.java", null);

        assertThat(viaLink).isEqualTo(dir.toRealPath() + "/real/sub/New.java");
    }

    @Test
    void procSelfIsTheCallersAndIsRefusedWhenTheCallerIsUnknown() throws Exception {
        Process child = new ProcessBuilder("sleep", "600").directory(dir.toFile()).start();
        try {
            String viaSelf = CanonicalPath.of("/proc/self/cwd/src/App.java", null, child::pid);
            String viaFd = CanonicalPath.of("/dev/fd/../cwd/src/App.java", null, child::pid);

            assertThat(viaSelf).isEqualTo(dir.toRealPath() + "/src/App.java");
            assertThat(viaFd).isEqualTo(dir.toRealPath() + "/src/App.java");
            assertThatThrownBy(() -> CanonicalPath.of("/proc/self/cwd/src/App.java", null))
                    .isInstanceOf(BatonException.class).hasMessageContaining("goes through /proc/self");
            assertThatThrownBy(() -> CanonicalPath.of("/proc/self/fd/0", null, child::pid))
                    .isInstanceOf(BatonException.class).hasMessageContaining("a file of a process rather than a file in a repository");
        } finally {
            child.destroyForcibly().waitFor();
        }
    }

    @Test
    void aSymlinkedFileIsKeyedByItsTarget() throws Exception {
        Path target = Files.writeString(dir.resolve("target.txt"), "x");
        Files.createSymbolicLink(dir.resolve("link.txt"), target);

        assertThat(CanonicalPath.of(dir + "/link.txt", null)).isEqualTo(target.toRealPath().toString());
    }

    @Test
    void aSymlinkLoopIsAClearValidationError() throws Exception {
        Files.createSymbolicLink(dir.resolve("loop1"), dir.resolve("loop2"));
        Files.createSymbolicLink(dir.resolve("loop2"), dir.resolve("loop1"));

        assertThatThrownBy(() -> CanonicalPath.of(dir + "/loop1/file", null))
                .isInstanceOf(BatonException.class).hasMessageContaining("cannot be resolved");
    }

    @Test
    void aSymlinkLoopNamedAsTheFileItselfIsAClearValidationError() throws Exception {
        Files.createSymbolicLink(dir.resolve("loop1"), dir.resolve("loop2"));
        Files.createSymbolicLink(dir.resolve("loop2"), dir.resolve("loop1"));

        assertThatThrownBy(() -> CanonicalPath.of(dir + "/loop1", null))
                .isInstanceOf(BatonException.class).hasMessageContaining("cannot be resolved");
    }

    @Test
    void aNewFileInNewDirectoriesBelowALinkIsKeyedThroughTheLinksTarget() throws Exception {
        Path target = Files.createDirectories(dir.resolve("real"));
        Files.createSymbolicLink(dir.resolve("alias"), target);

        assertThat(CanonicalPath.of(dir + "/alias/new/deeper/../file.txt", null))
                .isEqualTo(target.toRealPath().resolve("new/file.txt").toString());
        assertThat(CanonicalPath.of(dir + "/alias/new.txt", null)).isEqualTo(target.toRealPath().resolve("new.txt").toString());
    }

    @Test
    void traversalAboveTheRootStaysAtTheRoot() {
        assertThat(CanonicalPath.of("/../../etc/../tmp/x", null)).isEqualTo(CanonicalPath.of("/tmp/x", null));
    }

    @Test
    void emptyRelativeWithoutCwdAndNulPathsAreRejected() {
        assertThatThrownBy(() -> CanonicalPath.of("", null)).isInstanceOf(BatonException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> CanonicalPath.of("a.txt", null)).isInstanceOf(BatonException.class).hasMessageContaining("relative");
        assertThatThrownBy(() -> CanonicalPath.of("/a\0b", null)).isInstanceOf(BatonException.class).hasMessageContaining("NUL");
        assertThatThrownBy(() -> CanonicalPath.of("a", "relative/cwd")).isInstanceOf(BatonException.class).hasMessageContaining("absolute");
        assertThatThrownBy(() -> CanonicalPath.of("/" + "a".repeat(5000), null)).isInstanceOf(BatonException.class);
    }

    @Test
    void nonAsciiNamesKeepTheirCharacters() throws Exception {
        assertThat(CanonicalPath.of(dir + "/docs/Übersicht – café.md", null)).isEqualTo(dir.toRealPath() + "/docs/Übersicht – café.md");
    }
}
