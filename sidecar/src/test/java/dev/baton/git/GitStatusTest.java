package dev.baton.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every answer is checked both ways git is asked: by the files' names, and (many files) about the whole tree. */
class GitStatusTest {

    enum Asked {
        BY_NAME(GitStatus.NAMED_LIMIT), WHOLE_TREE(0);

        final GitStatus status;

        Asked(int namedLimit) {
            this.status = new GitStatus(Duration.ofSeconds(10), namedLimit);
        }
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Asked.class)
    void modifiedStagedDeletedAndUntrackedFilesAreChangedAndCleanOnesAreNot(Asked asked) throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"), "clean.txt", "modified.txt", "staged.txt", "deleted.txt",
                "docs/Übersicht – café.md");
        repo.write("modified.txt", "changed\n");
        repo.write("staged.txt", "changed and staged\n");
        repo.git("add", "staged.txt");
        Files.delete(repo.path("deleted.txt"));
        repo.write("new/untracked.txt", "new\n");
        repo.write("docs/Übersicht – café.md", "geändert\n");

        assertThat(asked.status.changedAmong(repo.root(), paths(repo, "clean.txt", "modified.txt", "staged.txt",
                "deleted.txt", "new/untracked.txt", "docs/Übersicht – café.md"))).containsExactlyInAnyOrder(
                repo.path("modified.txt"), repo.path("staged.txt"), repo.path("deleted.txt"),
                repo.path("new/untracked.txt"), repo.path("docs/Übersicht – café.md"));
    }

    @ParameterizedTest
    @EnumSource(Asked.class)
    void aFileStagedButUnchangedInTheWorkingTreeSinceIsChanged(Asked asked) throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"), "staged.txt", "staged-then-put-back.txt", "clean.txt");
        repo.write("staged.txt", "staged\n");
        repo.git("add", "staged.txt");
        repo.write("staged-then-put-back.txt", "staged\n");
        repo.git("add", "staged-then-put-back.txt");
        repo.write("staged-then-put-back.txt", "original content of staged-then-put-back.txt\n");
        repo.write("added-new.txt", "new and staged\n");
        repo.git("add", "added-new.txt");

        assertThat(asked.status.changedAmong(repo.root(), paths(repo, "staged.txt", "staged-then-put-back.txt",
                "added-new.txt", "clean.txt"))).containsExactlyInAnyOrder(repo.path("staged.txt"),
                repo.path("staged-then-put-back.txt"), repo.path("added-new.txt"));
    }

    @ParameterizedTest
    @EnumSource(Asked.class)
    void aRenamedFileCountsAsChangedUnderBothNames(Asked asked) throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"), "old.txt");
        repo.git("mv", "old.txt", "new.txt");

        assertThat(asked.status.changedAmong(repo.root(), paths(repo, "old.txt", "new.txt")))
                .containsExactlyInAnyOrder(repo.path("old.txt"), repo.path("new.txt"));
    }

    @ParameterizedTest
    @EnumSource(Asked.class)
    void anIgnoredFileAndOneNeitherOnDiskNorInGitHaveNoChange(Asked asked) throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"), ".gitignore");
        repo.write(".gitignore", "*.log\n");
        repo.git("commit", "-qam", "ignore logs");
        repo.write("debug.log", "noise\n");

        assertThat(asked.status.changedAmong(repo.root(), paths(repo, "debug.log", "never/written.txt"))).isEmpty();
    }

    /** Each name is a file, never a pattern or pathspec magic: {@code :/x.txt} is the file x.txt in directory ":". */
    @ParameterizedTest
    @EnumSource(Asked.class)
    void namesWithGlobCharactersSpacesAndPathspecMagicAreFilesNotPatterns(Asked asked) throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"), "a*b.txt", "aXb.txt", "[ab].txt", "a.txt", "x.txt",
                ":/x.txt", "with space.txt", "with  two spaces.txt", "-dash.txt");
        repo.write("aXb.txt", "changed\n");
        repo.write("a.txt", "changed\n");
        repo.write(":/x.txt", "changed\n");
        repo.write("with space.txt", "changed\n");
        repo.write("-dash.txt", "changed\n");

        assertThat(asked.status.changedAmong(repo.root(), paths(repo, "a*b.txt", "[ab].txt", "x.txt", ":/x.txt",
                "with space.txt", "with  two spaces.txt", "-dash.txt")))
                .containsExactlyInAnyOrder(repo.path(":/x.txt"), repo.path("with space.txt"), repo.path("-dash.txt"));
    }

    @ParameterizedTest
    @EnumSource(Asked.class)
    void onlyTheFilesAskedAboutAreAnswered(Asked asked) throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"), "held.txt", "other.txt");
        repo.write("held.txt", "changed\n");
        repo.write("other.txt", "changed\n");
        repo.write("untracked.txt", "new\n");

        assertThat(asked.status.changedAmong(repo.root(), paths(repo, "held.txt"))).containsExactly(repo.path("held.txt"));
    }

    /** Above the limit git is asked about the whole tree; names long enough to pass the byte limit too. */
    @Test
    void manyFilesAndLongNamesAreAnsweredAsFewAre() throws Exception {
        GitStatus status = new GitStatus(Duration.ofSeconds(10));
        String deep = "d".repeat(200) + "/" + "e".repeat(200) + "/" + "f".repeat(200) + "/" + "g".repeat(200) + "/";
        List<String> many = new ArrayList<>();
        for (int i = 0; i < GitStatus.NAMED_LIMIT + 50; i++) {
            many.add("many/F" + i + ".txt");
        }
        List<String> longNames = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            longNames.add(deep + "L" + i + ".txt"); // 80 names of 800 bytes: more than 64 KiB
        }
        List<String> all = new ArrayList<>(many);
        all.addAll(longNames);
        TestRepo repo = TestRepo.create(dir.resolve("repo"), all.toArray(String[]::new));
        List<Path> changed = new ArrayList<>();
        for (int i = 0; i < all.size(); i += 7) {
            repo.write(all.get(i), "changed\n");
            changed.add(repo.path(all.get(i)));
        }
        repo.write("not-asked.txt", "new\n");

        assertThat(status.changedAmong(repo.root(), paths(repo, all.toArray(String[]::new))))
                .containsExactlyInAnyOrderElementsOf(changed);
        assertThat(status.changedAmong(repo.root(), paths(repo, longNames.toArray(String[]::new))))
                .containsExactlyInAnyOrderElementsOf(changed.stream().filter(p -> p.toString().contains(deep)).toList());
    }

    /** A submodule whose repository is gone makes git's status of the whole tree fail; named files do not reach it. */
    @Test
    void aBrokenSubmoduleElsewhereInTheTreeDoesNotStopTheAnswerForFewFiles() throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"), "held.txt", "changed.txt");
        repo.git("update-index", "--add", "--cacheinfo", "160000," + repo.git("rev-parse", "HEAD").strip() + ",vendor/sub");
        repo.git("commit", "-qm", "a submodule");
        repo.write("vendor/sub/.git", "gitdir: " + dir.resolve("gone") + "\n");
        repo.write("changed.txt", "changed\n");

        assertThat(Asked.BY_NAME.status.changedAmong(repo.root(), paths(repo, "held.txt", "changed.txt")))
                .containsExactly(repo.path("changed.txt"));
        assertThatThrownBy(() -> Asked.WHOLE_TREE.status.changedAmong(repo.root(), paths(repo, "held.txt")))
                .isInstanceOf(GitException.class);
    }

    @ParameterizedTest
    @EnumSource(Asked.class)
    void aDirectoryThatIsNotARepositoryIsAnErrorNotAnEmptyAnswer(Asked asked) throws Exception {
        Files.writeString(dir.resolve("file.txt"), "x\n");

        assertThatThrownBy(() -> asked.status.changedAmong(dir, List.of(dir.resolve("file.txt"))))
                .isInstanceOf(GitException.class)
                .hasMessageContaining("failed with exit code");
    }

    private static List<Path> paths(TestRepo repo, String... relative) {
        return List.of(relative).stream().map(repo::path).toList();
    }
}
