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
}
