package dev.baton.git;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tree watch on a real directory tree: every change after a mark, and none before it. */
class TreeWatchTest {

    @TempDir
    Path dir;

    TreeWatch watch;
    Path tree;

    @BeforeEach
    void start() throws Exception {
        tree = Files.createDirectories(dir.resolve("tree"));
        Files.createDirectories(tree.resolve("src/main"));
        Files.createDirectories(tree.resolve("node_modules/lib"));
        Files.writeString(tree.resolve("src/main/A.java"), "a\n");
        Files.writeString(tree.resolve("old.txt"), "old\n");
        watch = new TreeWatch(Files.createDirectories(dir.resolve("private")),
                directory -> !directory.getFileName().toString().equals("node_modules"));
    }

    @AfterEach
    void stop() {
        watch.close();
    }

    @Test
    void everyChangeAfterTheMarkAndNoneBeforeIt() throws Exception {
        Files.writeString(tree.resolve("before.txt"), "before the mark\n");
        TreeWatch.Mark mark = watch.mark(tree).orElseThrow();
        Files.writeString(tree.resolve("before.txt"), "again\n", java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(tree.resolve("src/main/A.java"), "changed\n");
        Files.writeString(tree.resolve("created.txt"), "new\n");
        Files.delete(tree.resolve("old.txt"));
        Files.createDirectories(tree.resolve("src/test/deep"));
        Files.writeString(tree.resolve("src/test/deep/T.java"), "t\n");
        Files.move(tree.resolve("created.txt"), tree.resolve("moved.txt"));
        Files.writeString(tree.resolve("node_modules/lib/index.js"), "ignored\n");

        Optional<Set<Path>> changed = watch.changedSince(mark);

        assertThat(changed).isPresent();
        assertThat(changed.get()).contains(tree.resolve("before.txt"), tree.resolve("src/main/A.java"),
                tree.resolve("created.txt"), tree.resolve("old.txt"), tree.resolve("src/test/deep/T.java"),
                tree.resolve("moved.txt"))
                .doesNotContain(tree.resolve("node_modules/lib/index.js"));
    }

    @Test
    void nothingChangedIsAnEmptyAnswerAndAMarkSeesNoChangeBeforeIt() throws Exception {
        Files.writeString(tree.resolve("src/main/A.java"), "changed before\n");
        TreeWatch.Mark first = watch.mark(tree).orElseThrow();
        Files.writeString(tree.resolve("src/main/A.java"), "changed after the first\n");
        TreeWatch.Mark second = watch.mark(tree).orElseThrow();

        assertThat(watch.changedSince(second)).contains(Set.of());
        assertThat(watch.changedSince(first).orElseThrow()).containsExactly(tree.resolve("src/main/A.java"));
    }
}
