package dev.baton.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.git.TestRepo;
import dev.baton.git.WorkTreeCopies;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Registration;
import dev.baton.store.SqliteStore;
import dev.baton.testing.MutableClock;
import dev.baton.version.VersionStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the copies of a repository cost the lock table, and what survives a restart: a re-entrant edit names nothing, a
 * first edit names its file once, and the files held before a restart are named again so their other copies are found.
 * Real worktrees, the real naming; the port only counts the questions.
 */
class RepositoryCopiesTest {

    private static final String APP = "src/App.java";

    @TempDir Path dir;
    MutableClock clock = new MutableClock(Instant.parse("2026-12-02T09:00:00Z"));
    final List<String> named = new ArrayList<>();
    TestRepo repo;
    Path other;
    Baton baton;

    @BeforeEach
    void worktrees() throws Exception {
        repo = TestRepo.create(dir.resolve("app"), APP);
        other = dir.resolve("app-b");
        repo.git("worktree", "add", "-q", "-b", "feature-b", other.toString());
        other = other.toRealPath();
        baton = open();
    }

    @AfterEach
    void close() {
        baton.close();
    }

    private Baton open() {
        WorkTreeCopies real = new WorkTreeCopies(BranchRule.TELL);
        RepositoryCopies counting = new RepositoryCopies() {
            @Override
            public Optional<FileCopy> of(String file) {
                synchronized (named) {
                    named.add(file);
                }
                return real.of(file);
            }

            @Override
            public Optional<String> branchOf(String worktree) {
                return real.branchOf(worktree);
            }

            @Override
            public boolean exists(String worktree) {
                return real.exists(worktree);
            }
        };
        Baton opened = new Baton(new SqliteStore(dir.resolve("baton.db")), clock, new OsProcessLiveness(),
                Duration.ofMinutes(30), SharedLockSpace.LOCAL, VersionStore.NONE, counting);
        for (String id : List.of("a", "b")) {
            opened.sessions().register(new Registration(id, ClaudeCodeDialect.KIND, ProcessIdentity.current(), "host",
                    "/repo", "/repo", null, null));
        }
        return opened;
    }

    private AcquireOutcome take(String session, Path file) {
        return baton.locks().acquire(new AcquireRequest(session, List.of(file.toString()), Duration.ZERO, true, true));
    }

    @Test
    void aReEntrantEditNamesNothingAndAFirstEditNamesItsFileOnce() {
        take("a", repo.path(APP));
        assertThat(named).containsExactly(repo.path(APP).toString());

        named.clear();
        take("a", repo.path(APP));
        take("a", repo.path(APP));
        assertThat(named).isEmpty();

        AcquireOutcome b = take("b", other.resolve(APP));
        assertThat(named).containsExactly(other.resolve(APP).toString());
        assertThat(b.allAcquired()).isTrue();
        assertThat(b.results().get(0).alsoChangedIn()).singleElement().satisfies(copy -> {
            assertThat(copy.worktree()).isEqualTo(repo.root().toString());
            assertThat(copy.branch()).isEqualTo("main");
            assertThat(copy.holder().session()).isEqualTo("a");
        });
        assertThat(baton.locks().copyNotices().take("a")).singleElement().asString()
                .contains("is now also being changed in another copy").contains(other + " on branch feature-b");
        assertThat(baton.locks().copyNotices().take("a")).isEmpty();
    }

    @Test
    void theFilesHeldBeforeARestartAreNamedAgainAndTheirOtherCopiesFound() {
        take("a", repo.path(APP));
        baton.close();
        named.clear();

        baton = open();
        AcquireOutcome b = take("b", other.resolve(APP));

        assertThat(named).containsExactlyInAnyOrder(repo.path(APP).toString(), other.resolve(APP).toString());
        assertThat(b.results().get(0).alsoChangedIn()).extracting(HeldCopy::file).containsExactly(repo.path(APP).toString());
    }

    @Test
    void aFileReleasedAndTakenAgainIsCheckedAgainstTheOtherCopiesEachTime() {
        take("a", repo.path(APP));
        baton.locks().release("a", List.of(repo.path(APP).toString()), ReleaseReason.RELEASED);
        assertThat(take("b", other.resolve(APP)).results().get(0).alsoChangedIn()).isEmpty();

        AcquireOutcome again = take("a", repo.path(APP));
        baton.locks().release("b", List.of(other.resolve(APP).toString()), ReleaseReason.RELEASED);
        baton.locks().cleanupStale(); // forgets the copies of files no longer held
        AcquireOutcome third = take("b", other.resolve(APP));

        assertThat(again.results().get(0).alsoChangedIn()).extracting(HeldCopy::file).containsExactly(other.resolve(APP).toString());
        assertThat(third.results().get(0).alsoChangedIn()).extracting(HeldCopy::file).containsExactly(repo.path(APP).toString());
        assertThat(baton.locks().heldInSeveralCopies()).singleElement().extracting(CopiesOfAFile::path).isEqualTo(APP);
    }

    @Test
    void aBranchSwitchedAfterTheFileWasTakenCountsAsItIsNow() throws Exception {
        take("a", repo.path(APP));
        repo.git("switch", "-q", "-c", "feature-a");
        TestRepo.at(other).git("switch", "-q", "--ignore-other-worktrees", "feature-a");
        AcquireOutcome sameBranch = take("b", other.resolve(APP));

        assertThat(sameBranch.allAcquired()).isFalse();
        assertThat(sameBranch.results().get(0).copyOf()).satisfies(copy -> {
            assertThat(copy.file()).isEqualTo(repo.path(APP).toString());
            assertThat(copy.branch()).isEqualTo("feature-a");
        });
    }
}
