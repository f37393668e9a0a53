package dev.baton.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Registration;
import dev.baton.session.SessionRows;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import dev.baton.store.SqliteStore;
import dev.baton.support.ChildProcess;
import dev.baton.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LockTableTest {

    @TempDir Path dir;
    MutableClock clock = new MutableClock(Instant.parse("2026-11-22T09:00:00Z"));
    Baton baton;
    LockTable locks;

    @BeforeEach
    void open() {
        baton = new Baton(new SqliteStore(dir.resolve("baton.db")), clock, new OsProcessLiveness(), Duration.ofMinutes(30));
        locks = baton.locks();
    }

    @AfterEach
    void close() {
        baton.close();
    }

    private String session(String id) {
        return session(id, null, null);
    }

    private String session(String id, ProcessIdentity process, String parent) {
        baton.sessions().register(new Registration(id, ClaudeCodeDialect.KIND, process, "host", "/repo", "/repo", null, parent));
        return id;
    }

    private int lockCount() {
        Integer count = baton.ledger().read(world -> world.count(LockRows.FILES));
        return count;
    }

    private AcquireOutcome take(String session, String... files) {
        return locks.acquire(AcquireRequest.explicit(session, List.of(files), Duration.ZERO));
    }

    @Test
    void holderAcquiringAgainSucceedsWithOneRowAndAFreshHeartbeat() {
        String a = session("a");
        take(a, "/repo/A.java");
        clock.advance(Duration.ofMinutes(5));

        AcquireOutcome again = take(a, "/repo/A.java");

        assertThat(again.allAcquired()).isTrue();
        assertThat(again.results().get(0).reentrant()).isTrue();
        assertThat(lockCount()).isEqualTo(1);
        assertThat(baton.sessions().get(a).lastHeartbeat()).isEqualTo(clock.instant());
    }

    @Test
    void secondSessionIsBlockedWithHolderDetails() {
        String a = session("a");
        String b = session("b");
        take(a, "/repo/A.java");

        AcquireOutcome denied = take(b, "/repo/A.java");

        assertThat(denied.allAcquired()).isFalse();
        LockResult result = denied.results().get(0);
        assertThat(result.acquired()).isFalse();
        assertThat(result.holder().session()).isEqualTo("a");
        assertThat(result.holder().agent()).isEqualTo("claude-code");
        assertThat(result.holder().since()).isEqualTo(clock.instant());
    }

    @Test
    void multiFileAcquireAnswersPerFileInSortedOrderAndKeepsTheFreeOnes() {
        String a = session("a");
        String b = session("b");
        take(a, "/repo/b.txt");

        AcquireOutcome outcome = take(b, "/repo/c.txt", "/repo/a.txt", "/repo/b.txt", "/repo/a.txt");

        assertThat(outcome.results()).extracting(LockResult::file)
                .containsExactly("/repo/a.txt", "/repo/b.txt", "/repo/c.txt");
        assertThat(outcome.results()).extracting(LockResult::acquired).containsExactly(true, false, true);
        assertThat(locks.holderOf("/repo/c.txt")).map(Holder::session).contains("b");
    }

    @Test
    void allOrNothingTakesNoneOfTheNewFilesWhenOneIsHeld() {
        String a = session("a");
        String b = session("b");
        take(a, "/repo/held.txt");

        AcquireOutcome outcome = locks.acquire(new AcquireRequest(b, List.of("/repo/free.txt", "/repo/held.txt"),
                Duration.ZERO, true, true));

        assertThat(outcome.allAcquired()).isFalse();
        assertThat(locks.holderOf("/repo/free.txt")).isEmpty();
    }

    @Test
    void waitingAcquireReturnsAsSoonAsABlockedFileIsReleased() {
        String a = session("a");
        String b = session("b");
        take(a, "/repo/x", "/repo/y");

        CompletableFuture<AcquireOutcome> waiting = CompletableFuture.supplyAsync(() ->
                locks.acquire(AcquireRequest.explicit(b, List.of("/repo/x", "/repo/y", "/repo/z"), Duration.ofSeconds(30))));
        await().atMost(Duration.ofSeconds(5)).until(() -> locks.holderOf("/repo/z").isPresent());
        assertThat(waiting).isNotDone();

        locks.release(a, List.of("/repo/y"), ReleaseReason.RELEASED);

        AcquireOutcome outcome = waiting.orTimeout(10, java.util.concurrent.TimeUnit.SECONDS).join();
        assertThat(outcome.results()).extracting(LockResult::file, LockResult::acquired).containsExactly(
                org.assertj.core.groups.Tuple.tuple("/repo/x", false),
                org.assertj.core.groups.Tuple.tuple("/repo/y", true),
                org.assertj.core.groups.Tuple.tuple("/repo/z", true));
        assertThat(outcome.results().get(0).holder().session()).isEqualTo("a");
    }

    @Test
    void waitingAcquireGivesUpAtTheDeadlineWithTheHolder() {
        String a = session("a");
        String b = session("b");
        take(a, "/repo/x");

        AcquireOutcome outcome = locks.acquire(AcquireRequest.explicit(b, List.of("/repo/x"), Duration.ofMillis(300)));

        assertThat(outcome.allAcquired()).isFalse();
        assertThat(outcome.results().get(0).holder().session()).isEqualTo("a");
    }

    @Test
    void releaseIsIdempotentAndSaysWhatWasNotHeld() {
        String a = session("a");
        String b = session("b");
        take(a, "/repo/mine");
        take(b, "/repo/theirs");

        ReleaseOutcome outcome = locks.release(a, List.of("/repo/mine", "/repo/theirs", "/repo/nobody"), ReleaseReason.RELEASED);
        ReleaseOutcome again = locks.release(a, List.of("/repo/mine"), ReleaseReason.RELEASED);

        assertThat(outcome.released()).containsExactly("/repo/mine");
        assertThat(outcome.notHeld()).containsExactly("/repo/nobody", "/repo/theirs");
        assertThat(again.released()).isEmpty();
        assertThat(locks.holderOf("/repo/theirs")).map(Holder::session).contains("b");
    }

    @Test
    void emptyReleaseIsAValidationError() {
        String a = session("a");
        assertThatThrownBy(() -> locks.release(a, List.of(), ReleaseReason.RELEASED))
                .isInstanceOfSatisfying(BatonException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION));
    }

    @Test
    void releaseAllFreesEverythingTheSessionHolds() {
        String a = session("a");
        take(a, "/repo/1", "/repo/2", "/repo/3");

        ReleaseOutcome outcome = locks.releaseAll(a, ReleaseReason.RELEASED);

        assertThat(outcome.released()).containsExactly("/repo/1", "/repo/2", "/repo/3");
        assertThat(lockCount()).isZero();
    }

    @Test
    void holderSilentPastTheHeartbeatTtlIsFreedOnConflict() {
        String a = session("a");
        String b = session("b");
        take(a, "/repo/x");
        clock.advance(Duration.ofMinutes(31));

        AcquireOutcome outcome = take(b, "/repo/x");

        assertThat(outcome.allAcquired()).isTrue();
        List<dev.baton.state.AuditEntry> history = baton.ledger().read(w -> baton.ledger().store().history("/repo/x", 10));
        assertThat(history).anySatisfy(e -> assertThat(e.reason()).isEqualTo("heartbeat-expired"));
    }

    @Test
    void holderWithinTheHeartbeatTtlKeepsItsLock() {
        String a = session("a");
        String b = session("b");
        take(a, "/repo/x");
        clock.advance(Duration.ofMinutes(29));

        assertThat(take(b, "/repo/x").allAcquired()).isFalse();
    }

    @Test
    void aHolderWhoseProcessIsVerifiablyAliveKeepsItsFilesPastTheHeartbeatTtl() {
        try (ChildProcess agent = ChildProcess.sleeping()) {
            String a = session("a", ProcessIdentity.ofRunning(agent.pid()), null);
            String b = session("b");
            take(a, "/repo/x");
            clock.advance(Duration.ofHours(5));

            assertThat(take(b, "/repo/x").allAcquired()).isFalse();
            assertThat(locks.cleanupStale()).isEmpty();
            assertThat(locks.holderOf("/repo/x").orElseThrow().session()).isEqualTo(a);
        }
    }

    @Test
    void holderWhoseProcessExitedIsFreedOnTheNextConflict() {
        try (ChildProcess agent = ChildProcess.sleeping()) {
            String a = session("a", ProcessIdentity.ofRunning(agent.pid()), null);
            String b = session("b");
            take(a, "/repo/x", "/repo/y");
            assertThat(take(b, "/repo/x").allAcquired()).isFalse();

            agent.kill();

            assertThat(take(b, "/repo/x").allAcquired()).isTrue();
            assertThat(locks.holderOf("/repo/y")).isEmpty();
            assertThat(baton.sessions().find(a)).isEmpty();
        }
    }

    @Test
    void aLivePidWithAnotherStartInstantIsNotTheHolder() {
        try (ChildProcess reused = ChildProcess.sleeping()) {
            ProcessIdentity running = ProcessIdentity.ofRunning(reused.pid());
            ProcessIdentity earlierOwner = new ProcessIdentity(reused.pid(), running.startedAt().minus(Duration.ofHours(1)));
            String a = session("a", earlierOwner, null);
            String b = session("b");
            take(a, "/repo/x");

            assertThat(take(b, "/repo/x").allAcquired()).isTrue();
        }
    }

    @Test
    void cleanupStaleFreesExitedAndExpiredHoldersAndSaysWhy() {
        try (ChildProcess agent = ChildProcess.sleeping()) {
            String dead = session("dead", ProcessIdentity.ofRunning(agent.pid()), null);
            String idle = session("idle");
            String busy = session("busy");
            take(dead, "/repo/d");
            take(idle, "/repo/i");
            clock.advance(Duration.ofMinutes(31));
            take(busy, "/repo/b");
            agent.kill();

            List<FreedHolder> freed = locks.cleanupStale();

            assertThat(freed).extracting(FreedHolder::session, FreedHolder::reason).containsExactlyInAnyOrder(
                    org.assertj.core.groups.Tuple.tuple("dead", "holder-exited"),
                    org.assertj.core.groups.Tuple.tuple("idle", "heartbeat-expired"));
            assertThat(locks.holderOf("/repo/b")).isPresent();
        }
    }

    @Test
    void subagentMayEditItsParentsFileButSiblingsExcludeEachOther() {
        String parent = session("p");
        String one = session("p/one", null, parent);
        String two = session("p/two", null, parent);
        take(parent, "/repo/shared");

        assertThat(take(one, "/repo/shared").allAcquired()).isTrue();
        assertThat(take(one, "/repo/own").allAcquired()).isTrue();
        assertThat(take(two, "/repo/own").allAcquired()).isFalse();
    }

    @Test
    void endingTheParentFreesItsSubagentsLocks() {
        String parent = session("p");
        String sub = session("p/sub", null, parent);
        take(sub, "/repo/s");

        baton.ledger().write(tx -> locks.endSession(tx, tx.world().find(SessionRows.SESSIONS, parent).orElseThrow(),
                ReleaseReason.SESSION_ENDED, null));

        assertThat(locks.holderOf("/repo/s")).isEmpty();
        assertThat(baton.sessions().find(sub)).isEmpty();
    }

    @Test
    void releaseIfUnchangedKeepsAFileEditedAfterTheObservation() {
        String a = session("a");
        take(a, "/repo/clean", "/repo/touched");
        List<FileLock> observed = locks.locksOf(a);
        locks.acquire(new AcquireRequest(a, List.of("/repo/touched"), Duration.ZERO, true, true));

        ReleaseOutcome outcome = locks.releaseIfUnchanged(a, observed, ReleaseReason.AUTO_CLEAN);

        assertThat(outcome.released()).containsExactly("/repo/clean");
        assertThat(locks.holderOf("/repo/touched")).isPresent();
    }

    @Test
    void acquireForAnUnknownSessionIsNotFound() {
        assertThatThrownBy(() -> take("ghost", "/repo/x"))
                .isInstanceOfSatisfying(BatonException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }
}
