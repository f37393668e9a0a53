package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.git.TestRepo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LockScopeTest {

    @TempDir
    Path dir;

    @Test
    void sourceFilesInARepositoryAreLocked() throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"));
        LockScope scope = LockScope.defaults();

        assertThat(scope.locks(repo.path("src/App.java").toString())).isTrue();
        assertThat(scope.locks(repo.path("README.md").toString())).isTrue();
        assertThat(scope.locks(repo.path("docs/build-notes.md").toString())).isTrue();
    }

    @Test
    void theDefaultIgnoresMatchAtAnyDepth() throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"));
        LockScope scope = LockScope.defaults();

        for (String file : List.of(".git/config", "node_modules/a/index.js", "web/node_modules/a/index.js",
                "package-lock.json", "web/package-lock.json", "Cargo.lock", "yarn.lock", "target/App.class",
                "sidecar/target/classes/App.class", "build/out.js", "dist/app.js", "data/app.db")) {
            assertThat(scope.locks(repo.path(file).toString())).as(file).isFalse();
        }
    }

    @Test
    void filesOutsideAnyRepositoryAreLockedOnlyWhenEnabled() {
        String outside = dir.resolve("notes/todo.txt").toString();

        assertThat(LockScope.defaults().locks(outside)).isFalse();
        assertThat(LockScope.fromEnvironment(Map.of("BATON_LOCK_OUTSIDE_REPOS", "1")).locks(outside)).isTrue();
        assertThat(LockScope.fromEnvironment(Map.of("BATON_LOCK_OUTSIDE_REPOS", "1"))
                .locks(dir.resolve("notes/cache.db").toString())).isFalse();
    }

    @Test
    void extraGlobsComeFromBatonIgnoreAndALeadingSlashAnchorsThemToTheRoot() throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"));
        LockScope scope = LockScope.fromEnvironment(Map.of("BATON_IGNORE", "*.generated.java: /docs/** "));

        assertThat(scope.locks(repo.path("src/Api.generated.java").toString())).isFalse();
        assertThat(scope.locks(repo.path("docs/guide.md").toString())).isFalse();
        assertThat(scope.locks(repo.path("src/docs/guide.md").toString())).isTrue();
    }

    @Test
    void everyLockfileIsNeverLockedAtAnyDepth() throws Exception {
        TestRepo repo = TestRepo.create(dir.resolve("repo"));
        LockScope scope = LockScope.defaults();

        assertThat(LockScope.LOCKFILES).contains("pnpm-lock.yaml", "bun.lockb", "poetry.lock", "Gemfile.lock", "go.sum",
                "composer.lock", "Cargo.lock", "yarn.lock", "package-lock.json");
        for (String lockfile : LockScope.LOCKFILES) {
            assertThat(scope.locks(repo.path(lockfile).toString())).as(lockfile).isFalse();
            assertThat(scope.locks(repo.path("services/api/" + lockfile).toString())).as(lockfile).isFalse();
        }
        assertThat(scope.locks(repo.path("go.mod").toString())).isTrue();
        assertThat(scope.locks(repo.path("pyproject.toml").toString())).isTrue();
    }

    @Test
    void theReadmeListsExactlyTheseLockfiles() throws Exception {
        String readme = java.nio.file.Files.readString(Path.of("..", "README.md"));
        String paragraph = readme.substring(readme.indexOf("* **Files Baton never locks**"));
        paragraph = paragraph.substring(paragraph.indexOf("these lockfiles at any depth:"), paragraph.indexOf(". `BATON_IGNORE`"));

        List<String> listed = java.util.regex.Pattern.compile("`([^`]+)`").matcher(paragraph).results()
                .map(match -> match.group(1)).toList();

        assertThat(listed).containsExactlyElementsOf(LockScope.LOCKFILES);
    }
}
