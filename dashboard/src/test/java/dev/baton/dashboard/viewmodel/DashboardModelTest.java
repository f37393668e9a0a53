package dev.baton.dashboard.viewmodel;

import static dev.baton.dashboard.WireFrames.REPO;
import static dev.baton.dashboard.WireFrames.event;
import static dev.baton.dashboard.WireFrames.frame;
import static dev.baton.dashboard.WireFrames.lock;
import static dev.baton.dashboard.WireFrames.negotiation;
import static dev.baton.dashboard.WireFrames.session;
import static dev.baton.dashboard.WireFrames.snapshot;
import static dev.baton.dashboard.WireFrames.waitOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testing.MutableClock;
import dev.baton.dashboard.protocol.Frame;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DashboardModelTest {

    private static final String A = "aaaaaaaa-1";
    private static final String B = "bbbbbbbb-2";

    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T10:00:00Z"));
    private final DashboardModel model = new DashboardModel(clock);

    @Test
    void aSnapshotFillsSessionAndLockRowsWithRepoRelativePaths() {
        model.apply(List.of(frame(snapshot(7,
                session(A, "auth", "2025-01-01T09:00:00Z") + "," + session(B, null, "2025-01-01T09:30:00Z"),
                lock("src/App.java", A, "2025-01-01T09:50:00Z", false), waitOf(B, A, "src/App.java"), "", ""))));

        assertThat(model.loadedProperty().get()).isTrue();
        assertThat(model.seqProperty().get()).isEqualTo(7);
        assertThat(model.sessions()).extracting(SessionRow::shortId, SessionRow::label, SessionRow::locksHeld)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("aaaaaaaa", "auth", 1),
                        org.assertj.core.groups.Tuple.tuple("bbbbbbbb", REPO, 0));
        SessionRow waiter = model.sessions().stream().filter(r -> r.id().equals(B)).findFirst().orElseThrow();
        assertThat(waiter.waitingFor()).isEqualTo("auth (src/App.java)");
        assertThat(waiter.plan()).isEqualTo("refactor auth — now: split the filter");
        LockRow row = model.locks().get(0);
        assertThat(row.shownFile()).isEqualTo("src/App.java");
        assertThat(row.file()).isEqualTo(REPO + "/src/App.java");
        assertThat(row.holder()).isEqualTo("auth");
        assertThat(row.state()).isEqualTo(LockRow.State.HELD);
        assertThat(row.waiters()).isEqualTo(1);
    }

    @Test
    void everySessionReadsByTheLabelItsSidecarGivesItAndIsNeverCutMidWord() {
        String copilot = "c0p1l0t-5e55-4a1b-8c2d-0e9f8a7b6c5d";
        String ended = "01a20ad7-0d1e-7261-a9b4-ba69d2d81e73";
        String withLabel = session(copilot, null, "2025-01-01T09:00:00Z").replace("\"agent\":\"claude-code\"",
                "\"label\":\"copilot-cli c0p1l0t-5e55\",\"agent\":\"copilot-cli\"");
        String endedHolds = lock("b.txt", ended, "2025-01-01T09:50:00Z", false)
                .replace("\"agent\":\"claude-code\"", "\"label\":\"codex 01a20ad7-0d1e\",\"agent\":\"codex\"");
        model.apply(List.of(frame(snapshot(1, withLabel + "," + session(B, null, "2025-01-01T09:30:00Z"),
                lock("a.txt", copilot, "2025-01-01T09:50:00Z", false) + "," + endedHolds, waitOf(B, copilot, "a.txt"),
                "", ""))));

        assertThat(model.locks()).extracting(LockRow::holder)
                .containsExactlyInAnyOrder("copilot-cli c0p1l0t-5e55", "codex 01a20ad7-0d1e");
        assertThat(model.sessions()).extracting(SessionRow::shortId).containsExactlyInAnyOrder("c0p1l0t-5e55", "bbbbbbbb");
        SessionRow waiter = model.sessions().stream().filter(r -> r.id().equals(B)).findFirst().orElseThrow();
        assertThat(waiter.waitingFor()).isEqualTo("copilot-cli c0p1l0t-5e55 (a.txt)");
        assertThat(model.graphProperty().get().nodes()).extracting(n -> n.label()).contains("c0p1l0t-5e55", "bbbbbbbb");
    }

    @Test
    void lockEventsAddUpdateAndRemoveRowsInPlace() {
        model.apply(List.of(frame(snapshot(1, session(A, null, "2025-01-01T09:00:00Z"), "", "", "", ""))));

        model.apply(List.of(frame(event(2, "lock.acquired", "{\"lock\":" + lock("a.txt", A, "2025-01-01T10:00:00Z", false) + "}")),
                frame(event(3, "lock.acquired", "{\"lock\":" + lock("b.txt", A, "2025-01-01T10:00:00Z", false) + "}"))));
        LockRow untouched = model.locks().stream().filter(r -> r.shownFile().equals("a.txt")).findFirst().orElseThrow();
        model.apply(List.of(frame(event(4, "lock.updated", "{\"lock\":" + lock("b.txt", A, "2025-01-01T10:00:00Z", true) + "}"))));

        assertThat(model.locks()).extracting(LockRow::shownFile, LockRow::state).containsExactly(
                org.assertj.core.groups.Tuple.tuple("a.txt", LockRow.State.HELD),
                org.assertj.core.groups.Tuple.tuple("b.txt", LockRow.State.EDITING));
        assertThat(model.locks().get(0)).isSameAs(untouched);

        model.apply(List.of(frame(event(5, "lock.released",
                "{\"file\":\"" + REPO + "/a.txt\",\"session_id\":\"" + A + "\",\"reason\":\"forced\",\"actor\":\"supervisor dashboard (pid 4242 java on /dev/pts/3)\"}"))));
        assertThat(model.locks()).extracting(LockRow::shownFile).containsExactly("b.txt");
        assertThat(model.sessions().get(0).locksHeld()).isEqualTo(1);
        assertThat(model.activity()).extracting(e -> e.summary()).contains("the supervisor dashboard (pid 4242 java on /dev/pts/3) took a.txt from claude-code aaaaaaaa (forced);"
                + " claude-code aaaaaaaa is told on its next call to re-read it");
    }

    @Test
    void aShellWriteConflictShowsInTheActivityLogWithWriterCommandFileAndHolder() {
        model.apply(List.of(frame(snapshot(1, session(A, null, "2025-01-01T09:00:00Z") + ","
                + session(B, null, "2025-01-01T09:30:00Z"), lock("a.txt", A, "2025-01-01T10:00:00Z", false), "", "", ""))));

        model.apply(List.of(frame(event(2, "shell.write_conflict", "{\"file\":\"" + REPO + "/a.txt\",\"session_id\":\""
                + B + "\",\"holder\":\"" + A + "\",\"command\":\"python3 gen.py\"}"))));

        assertThat(model.activity()).extracting(e -> e.summary())
                .containsExactly("claude-code bbbbbbbb's command `python3 gen.py` changed a.txt, held by claude-code aaaaaaaa");
    }

    @Test
    void aShellWriteConflictWithAKeptVersionShowsTheRestoreCommandAndTheRestoreShowsToo() {
        model.apply(List.of(frame(snapshot(1, session(A, null, "2025-01-01T09:00:00Z") + ","
                + session(B, null, "2025-01-01T09:30:00Z"), lock("a.txt", A, "2025-01-01T10:00:00Z", false), "", "", ""))));

        model.apply(List.of(frame(event(2, "shell.write_conflict", "{\"file\":\"" + REPO + "/a.txt\",\"session_id\":\""
                + B + "\",\"holder\":\"" + A + "\",\"command\":\"python3 gen.py\",\"version\":\"" + "ab".repeat(32)
                + "\",\"restore\":\"baton restore " + REPO + "/a.txt\"}"))));
        model.apply(List.of(frame(event(3, "version.restored", "{\"file\":\"" + REPO + "/a.txt\",\"holder\":\""
                + A + "\",\"version\":\"" + "ab".repeat(32) + "\",\"by\":\"" + A + "\"}"))));

        assertThat(model.activity()).extracting(e -> e.summary()).contains(
                "claude-code bbbbbbbb's command `python3 gen.py` changed a.txt, held by claude-code aaaaaaaa; its holder can put its last"
                        + " version back with `baton restore " + REPO + "/a.txt`",
                "a.txt was put back to claude-code aaaaaaaa's last version by its holder");
    }

    @Test
    void aSessionEndRemovesItsRowsAndTheLocksItHeld() {
        model.apply(List.of(frame(snapshot(1, session(A, null, "2025-01-01T09:00:00Z"),
                lock("a.txt", A, "2025-01-01T10:00:00Z", false), "", "", ""))));

        model.apply(List.of(frame(event(2, "session.ended", "{\"session_id\":\"" + A + "\",\"reason\":\"session-ended\"}"))));

        assertThat(model.sessions()).isEmpty();
        assertThat(model.locks()).isEmpty();
        assertThat(model.activity()).extracting(e -> e.summary()).containsExactly("claude-code aaaaaaaa ended (session-ended)");
    }

    @Test
    void refusedImpersonationsAndTheSupervisorEndingASessionShowInTheActivityLog() {
        model.apply(List.of(frame(snapshot(1, session(A, null, "2025-01-01T09:00:00Z") + ","
                + session(B, null, "2025-01-01T09:30:00Z"), "", "", "", ""))));

        model.apply(List.of(
                frame(event(2, "security.impersonation_refused", "{\"session_id\":\"" + A + "\",\"attempt\":"
                        + "\"hook call not from below the session's agent\",\"by\":\"pid 777\"}")),
                frame(event(3, "security.impersonation_refused", "{\"attempt\":\"named lock nightly for process 1,"
                        + " which it did not start\",\"by\":\"pid 778\"}")),
                frame(event(4, "session.ended", "{\"session_id\":\"" + B + "\",\"reason\":\"session-ended\","
                        + "\"actor\":\"supervisor (pid 4242 java on /dev/pts/3)\"}"))));

        assertThat(model.activity()).extracting(e -> e.summary()).contains(
                "refused: pid 777 tried to act as claude-code aaaaaaaa (hook call not from below the session's agent)",
                "refused: pid 778 tried to act as another session (named lock nightly for process 1, which it did not start)",
                "claude-code bbbbbbbb ended (session-ended), by the supervisor (pid 4242 java on /dev/pts/3)");
    }

    @Test
    void aLaterSnapshotReplacesEverythingShownBefore() {
        model.apply(List.of(frame(snapshot(1, session(A, null, "2025-01-01T09:00:00Z"),
                lock("a.txt", A, "2025-01-01T10:00:00Z", false), "", "", ""))));

        model.apply(List.of(frame(snapshot(40, session(B, null, "2025-01-01T09:00:00Z"), "", "", "", ""))));

        assertThat(model.sessions()).extracting(SessionRow::id).containsExactly(B);
        assertThat(model.locks()).isEmpty();
        assertThat(model.seqProperty().get()).isEqualTo(40);
    }

    @Test
    void theNegotiationCountdownFollowsTheInjectedClockAndTurnsNearThenEligible() {
        model.apply(List.of(frame(snapshot(1, session(A, null, "2025-01-01T09:00:00Z"), "", "",
                negotiation("n1", "pending", "2025-01-01T10:00:00Z", "2025-01-01T10:05:00Z"), ""))));
        NegotiationRow row = model.negotiations().get(0);

        assertThat(Countdown.of(row, model.nowProperty().get())).satisfies(c -> {
            assertThat(c.shown()).isEqualTo("5:00");
            assertThat(c.level()).isEqualTo(Countdown.Level.CALM);
        });

        clock.advance(Duration.ofMinutes(3).plusSeconds(30));
        model.tick();
        assertThat(Countdown.of(row, model.nowProperty().get())).satisfies(c -> {
            assertThat(c.shown()).isEqualTo("1:30");
            assertThat(c.level()).isEqualTo(Countdown.Level.NEAR);
        });

        clock.advance(Duration.ofMinutes(2));
        model.tick();
        assertThat(Countdown.of(row, model.nowProperty().get())).satisfies(c -> {
            assertThat(c.shown()).isEqualTo("timed out");
            assertThat(c.level()).isEqualTo(Countdown.Level.ELIGIBLE);
        });
    }

    @Test
    void aResolvedNegotiationHasNoCountdown() {
        model.apply(List.of(frame(snapshot(1, "", "", "", "", ""))));
        model.apply(List.of(frame(event(2, "negotiation.resolved", "{\"negotiation\":"
                + negotiation("n1", "resolved", "2025-01-01T10:00:00Z", "2025-01-01T10:05:00Z") + "}"))));

        assertThat(Countdown.of(model.negotiations().get(0), model.nowProperty().get()).level())
                .isEqualTo(Countdown.Level.SETTLED);
    }

    @Test
    void waitsAndADeadlockEventMakeARedCycleWithTheReportedVictim() {
        model.apply(List.of(frame(snapshot(1, session(A, null, "2025-01-01T09:00:00Z") + "," + session(B, null, "2025-01-01T09:30:00Z"),
                "", "", "", ""))));
        model.apply(List.of(
                frame(event(2, "wait.started", "{\"wait\":" + waitOf(A, B, "b.txt") + "}")),
                frame(event(3, "wait.started", "{\"wait\":" + waitOf(B, A, "a.txt") + "}")),
                frame(event(4, "deadlock.detected", "{\"deadlock\":{\"id\":\"d1\",\"sessions\":[\"" + A + "\",\"" + B
                        + "\"],\"files\":[\"" + REPO + "/b.txt\",\"" + REPO + "/a.txt\"],\"victim\":\"" + A
                        + "\",\"detected_at\":\"2025-01-01T10:00:00Z\"}}"))));

        var graph = model.graphProperty().get();
        assertThat(graph.edges()).allMatch(e -> e.deadlock()).hasSize(2);
        assertThat(graph.nodes()).filteredOn(n -> n.victim()).extracting(n -> n.id()).containsExactly(A);
        assertThat(model.activity()).extracting(e -> e.summary())
                .contains("deadlock: claude-code aaaaaaaa → claude-code bbbbbbbb → claude-code aaaaaaaa on b.txt, a.txt; victim claude-code aaaaaaaa");

        model.apply(List.of(frame(event(5, "wait.ended", "{\"waiter\":\"" + A + "\",\"file\":\"" + REPO + "/b.txt\",\"kind\":\"acquire\"}")),
                frame(event(6, "deadlock.resolved", "{\"id\":\"d1\",\"how\":\"victim released\"}"))));
        assertThat(model.graphProperty().get().hasDeadlock()).isFalse();
        assertThat(model.graphProperty().get().edges()).hasSize(1);
    }

    @Test
    void theActivityLogKeepsOnlyTheNewestEntries() {
        model.apply(List.of(frame(snapshot(0, "", "", "", "", ""))));
        List<Frame> burst = new ArrayList<>();
        for (int seq = 1; seq <= DashboardModel.ACTIVITY_LIMIT + 100; seq++) {
            burst.add(frame(event(seq, "plan.updated", "{\"session_id\":\"x\",\"goal\":\"g" + seq + "\",\"current_task\":null}")));
        }

        model.apply(burst);

        assertThat(model.activity()).hasSize(DashboardModel.ACTIVITY_LIMIT);
        assertThat(model.activity().get(0).seq()).isEqualTo(101);
        assertThat(model.seqProperty().get()).isEqualTo(DashboardModel.ACTIVITY_LIMIT + 100);
    }
}
