package dev.baton.dashboard.viewmodel;

import static dev.baton.dashboard.WireFrames.event;
import static dev.baton.dashboard.WireFrames.frame;
import static dev.baton.dashboard.WireFrames.lock;
import static dev.baton.dashboard.WireFrames.lockInCopy;
import static dev.baton.dashboard.WireFrames.sessionIn;
import static dev.baton.dashboard.WireFrames.snapshot;
import static dev.baton.dashboard.WireFrames.waitOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.dashboard.graph.WaitGraph;
import dev.baton.dashboard.protocol.LockInfo;
import dev.baton.testing.MutableClock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One file of a repository changed in two of its copies (worktrees, clones): the Locks column and the graph's marker. */
class OtherCopiesTest {

    private static final String A = "aaaaaaaa-1";
    private static final String B = "bbbbbbbb-2";
    private static final String C = "cccccccc-3";
    private static final String REPOSITORY = "origin:github.com/o/r";
    private static final String MAIN = "/work/app";
    private static final String FEATURE = "/work/app-feature";
    private static final String FIX = "/work/wt/fix";

    private final DashboardModel model = new DashboardModel(new MutableClock(Instant.parse("2025-01-01T10:00:00Z")));

    private static String sessions() {
        return sessionIn(A, MAIN, "2025-01-01T09:00:00Z") + "," + sessionIn(B, FEATURE, "2025-01-01T09:10:00Z") + ","
                + sessionIn(C, FIX, "2025-01-01T09:20:00Z");
    }

    private LockRow row(String file) {
        return model.locks().stream().filter(r -> r.file().equals(file)).findFirst().orElseThrow();
    }

    @Test
    void theCopyOfALockIsReadFromTheSnapshot() {
        model.apply(List.of(frame(snapshot(1, sessions(), lockInCopy(FEATURE, "src/App.java", B, REPOSITORY, "feature-b"),
                "", "", ""))));

        assertThat(model.board().locks()).extracting(LockInfo::copy)
                .containsExactly(new LockInfo.Copy(REPOSITORY, "src/App.java", FEATURE, "feature-b"));
    }

    @Test
    void aFileHeldInTwoWorktreesNamesTheOtherWorktreeItsBranchAndItsHolderOnEachRow() {
        model.apply(List.of(frame(snapshot(1, sessions(), lockInCopy(MAIN, "src/App.java", A, REPOSITORY, "main") + ","
                + lockInCopy(FEATURE, "src/App.java", B, REPOSITORY, "feature-b"), "", "", ""))));

        LockRow inMain = row(MAIN + "/src/App.java");
        assertThat(inMain.alsoChangedIn()).isEqualTo("app-feature (branch feature-b) by claude-code bbbbbbbb");
        assertThat(inMain.alsoChangedInDescription())
                .isEqualTo(FEATURE + " (branch feature-b) by claude-code session " + B);
        assertThat(row(FEATURE + "/src/App.java").alsoChangedIn()).isEqualTo("app (branch main) by claude-code aaaaaaaa");
    }

    @Test
    void aFileInThreeCopiesNamesBothOthersInTheOrderOfTheirWorktreesAndADetachedHeadByItsCommit() {
        String commit = "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b";
        model.apply(List.of(frame(snapshot(1, sessions(), lockInCopy(MAIN, "src/App.java", A, REPOSITORY, "main") + ","
                + lockInCopy(FIX, "src/App.java", C, REPOSITORY, commit) + ","
                + lockInCopy(FEATURE, "src/App.java", B, REPOSITORY, null), "", "", ""))));

        assertThat(row(MAIN + "/src/App.java").otherCopies()).extracting(OtherCopy::worktree).containsExactly(FEATURE, FIX);
        assertThat(row(MAIN + "/src/App.java").alsoChangedIn())
                .isEqualTo("app-feature by claude-code bbbbbbbb, fix (detached at 1a2b3c4d) by claude-code cccccccc");
    }

    @Test
    void locksWithoutACopyOrOfAnotherRepositoryOrAnotherPathAreNotOtherCopies() {
        String noCopy = lock("src/App.java", A, "2025-01-01T09:50:00Z", false); // a sidecar that sends no copy
        String nullCopy = lockInCopy("/tmp/notes", "todo.txt", C, REPOSITORY, null).replaceFirst("\"copy\":\\{[^}]*}", "\"copy\":null");
        model.apply(List.of(frame(snapshot(1, sessions(), String.join(",", noCopy, nullCopy,
                lockInCopy(FEATURE, "src/App.java", B, "origin:github.com/o/other", "feature-b"),
                lockInCopy(FIX, "src/Other.java", C, REPOSITORY, "fix")), "", "", ""))));

        assertThat(model.locks()).hasSize(4).allSatisfy(row -> {
            assertThat(row.otherCopies()).isEmpty();
            assertThat(row.alsoChangedIn()).isEmpty();
        });
        assertThat(model.graphProperty().get().overlaps()).isEmpty();
    }

    @Test
    void theOtherCopyAppearsWithItsLockAndGoesWithItsRelease() {
        model.apply(List.of(frame(snapshot(1, sessions(), lockInCopy(MAIN, "src/App.java", A, REPOSITORY, "main"), "", "", ""))));
        assertThat(row(MAIN + "/src/App.java").alsoChangedIn()).isEmpty();

        model.apply(List.of(frame(event(2, "lock.acquired",
                "{\"lock\":" + lockInCopy(FEATURE, "src/App.java", B, REPOSITORY, "feature-b") + "}"))));
        assertThat(row(MAIN + "/src/App.java").alsoChangedIn()).isEqualTo("app-feature (branch feature-b) by claude-code bbbbbbbb");

        model.apply(List.of(frame(event(3, "lock.released",
                "{\"file\":\"" + FEATURE + "/src/App.java\",\"session_id\":\"" + B + "\",\"reason\":\"released\"}"))));
        assertThat(row(MAIN + "/src/App.java").alsoChangedIn()).isEmpty();
    }

    @Test
    void theGraphJoinsTwoSessionsChangingOneFileInTwoCopiesApartFromTheirWaits() {
        model.apply(List.of(frame(snapshot(1, sessions(), lockInCopy(MAIN, "src/App.java", A, REPOSITORY, "main") + ","
                + lockInCopy(MAIN, "pom.xml", A, REPOSITORY, "main") + ","
                + lockInCopy(FEATURE, "src/App.java", B, REPOSITORY, "feature-b") + ","
                + lockInCopy(FEATURE, "pom.xml", B, REPOSITORY, "feature-b"), waitOf(C, A, "pom.xml"), "", ""))));

        WaitGraph graph = model.graphProperty().get();
        assertThat(graph.overlaps()).containsExactly(new WaitGraph.Overlap(A, B, List.of("pom.xml", "src/App.java")));
        assertThat(graph.edges()).extracting(WaitGraph.Edge::from, WaitGraph.Edge::to)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(C, A));
        assertThat(graph.hasDeadlock()).isFalse();
    }

    @Test
    void theGraphMarkerFollowsLockEventsAloneWithoutAnyWaitOrSessionChange() {
        model.apply(List.of(frame(snapshot(1, sessions(), lockInCopy(MAIN, "src/App.java", A, REPOSITORY, "main"), "", "", ""))));
        assertThat(model.graphProperty().get().hasOverlap()).isFalse();

        model.apply(List.of(frame(event(2, "lock.acquired",
                "{\"lock\":" + lockInCopy(FIX, "src/App.java", C, REPOSITORY, "fix") + "}"))));
        assertThat(model.graphProperty().get().overlaps()).containsExactly(new WaitGraph.Overlap(A, C, List.of("src/App.java")));

        model.apply(List.of(frame(event(3, "lock.released",
                "{\"file\":\"" + MAIN + "/src/App.java\",\"session_id\":\"" + A + "\",\"reason\":\"released\"}"))));
        assertThat(model.graphProperty().get().hasOverlap()).isFalse();
    }

    @Test
    void oneSessionHoldingAFileInTwoOfItsCopiesIsListedOnTheLocksPageButJoinsNobodyOnTheGraph() {
        model.apply(List.of(frame(snapshot(1, sessions(), lockInCopy(MAIN, "src/App.java", A, REPOSITORY, "main") + ","
                + lockInCopy(FEATURE, "src/App.java", A, REPOSITORY, "feature-b"), "", "", ""))));

        assertThat(row(MAIN + "/src/App.java").alsoChangedIn()).isEqualTo("app-feature (branch feature-b) by claude-code aaaaaaaa");
        assertThat(model.graphProperty().get().overlaps()).isEmpty();
    }
}
