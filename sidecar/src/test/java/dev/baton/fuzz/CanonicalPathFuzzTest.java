package dev.baton.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.lock.CanonicalPath;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lock keys from any spelling of a path: only validation errors, absolute and normalised keys,
 * one key per file however it is spelled, and the key names the file the system would open.
 */
class CanonicalPathFuzzTest {

    @TempDir static Path dir;
    static String root;
    static final FuzzRun run = new FuzzRun("canonical-path");

    @BeforeAll
    static void tree() throws IOException {
        Path real = dir.toRealPath();
        root = real.toString();
        Files.createDirectories(real.resolve("real/sub"));
        Files.writeString(real.resolve("real/file.txt"), "x");
        Files.writeString(real.resolve("real/sub/App.java"), "class App {}");
        Files.createSymbolicLink(real.resolve("alias"), real.resolve("real"));
        Files.createSymbolicLink(real.resolve("deep"), Path.of("real/sub"));
        Files.createSymbolicLink(real.resolve("filelink"), Path.of("real/file.txt"));
        Files.createSymbolicLink(real.resolve("dangling"), Path.of("nowhere/new.txt"));
        Files.createSymbolicLink(real.resolve("loop1"), Path.of("loop2"));
        Files.createSymbolicLink(real.resolve("loop2"), Path.of("loop1"));
    }

    @AfterAll
    static void report() {
        run.report();
    }

    /** The names in the tree: the fuzzer cannot learn them from comparisons, they come from the file system. */
    @FuzzTest(maxDuration = "30s")
    @DictionaryEntries({"real", "sub", "file.txt", "App.java", "alias", "deep", "filelink", "dangling", "loop1", "../", "./", "/", "//"})
    void keysAreCanonical(FuzzedDataProvider data) throws IOException {
        run.executed();
        String cwd = switch (data.consumeInt(0, 3)) {
            case 0 -> root;
            case 1 -> root + "/alias/sub";
            case 2 -> null;
            default -> data.consumeString(64);
        };
        String raw = data.consumeRemainingAsString();
        String key;
        try {
            key = CanonicalPath.of(raw, cwd);
        } catch (BatonException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION);
            run.answered("refused");
            return;
        }
        run.answered("keyed");
        Path path = Path.of(key);
        assertThat(path.isAbsolute()).as("absolute: %s", key).isTrue();
        assertThat(path.normalize().toString()).as("normalised").isEqualTo(key);
        assertThat(CanonicalPath.of(key, null)).as("idempotent").isEqualTo(key);
        String respelled = respell(raw, cwd);
        if (respelled.length() <= 4096) {
            assertThat(CanonicalPath.of(respelled, cwd)).as("respelled as %s", respelled).isEqualTo(key);
        }
        Path opened = Path.of(raw).isAbsolute() ? Path.of(raw) : Path.of(cwd).resolve(raw);
        if (Files.exists(opened)) {
            assertThat(key).as("the key of an existing file is the file the system opens").isEqualTo(opened.toRealPath().toString());
        }
    }

    /** The same path spelled with a "." after every separator and a ".." that leads back where it started. */
    static String respell(String raw, String cwd) {
        String dotted = raw.replace("/", "/./");
        if (dotted.startsWith("/")) {
            return "/.." + dotted; // the root's parent is the root
        }
        return (root.equals(cwd) ? "real/../" : "./") + dotted; // real is a plain directory under the root
    }
}
