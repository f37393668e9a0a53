package dev.baton.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitStatusTest {

    private final GitStatus status = new GitStatus(Duration.ofSeconds(10));

    @Test
    void modifiedStagedDeletedAndUntrackedFilesAreChangedAndCleanOnesAreNot(@TempDir Path dir) throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"), "clean.txt", "modified.txt", "staged.txt", "deleted.txt",
                "docs/Übersicht – café.md");
        repo.write("modified.txt", "changed\n");
        repo.write("staged.txt", "changed and staged\n");
        repo.git("add", "staged.txt");
        Files.delete(repo.path("deleted.txt"));
        repo.write("new/untracked.txt", "new\n");
        repo.write("docs/Übersicht – café.md", "geändert\n");

        assertThat(status.changedFiles(repo.root())).containsExactlyInAnyOrder(
                repo.path("modified.txt"), repo.path("staged.txt"), repo.path("deleted.txt"),
                repo.path("new/untracked.txt"), repo.path("docs/Übersicht – café.md"));
    }

    @Test
    void aRenamedFileCountsAsChangedUnderBothNames(@TempDir Path dir) throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"), "old.txt");
        repo.git("mv", "old.txt", "new.txt");

        assertThat(status.changedFiles(repo.root())).contains(repo.path("old.txt"), repo.path("new.txt"));
    }

    @Test
    void ignoredFilesAreNotListed(@TempDir Path dir) throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"), ".gitignore");
        repo.write(".gitignore", "*.log\n");
        repo.git("commit", "-qam", "ignore logs");
        repo.write("debug.log", "noise\n");

        assertThat(status.changedFiles(repo.root())).isEmpty();
    }

    @Test
    void aDirectoryThatIsNotARepositoryIsAnErrorNotAnEmptyAnswer(@TempDir Path dir) {
        assertThatThrownBy(() -> status.changedFiles(dir))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("failed with exit code");
    }
}
