package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.git.TestRepo;
import dev.baton.lock.BranchRule;
import dev.baton.lock.CopiesOfAFile;
import dev.baton.lock.HeldCopy;
import dev.baton.lock.ReleaseReason;
import dev.baton.state.AuditEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One file in every copy of its repository: real worktrees made with {@code git worktree add} and real clones, each
 * with a stand-in agent running the real hook script in it. The same branch shares one lock; another branch's edit
 * goes ahead, and both sessions are told who else changes the file where.
 */
class WorktreeCopiesHookTest extends HookFixture {

    private static final String CART = "src/main/java/shop/Cart.java";
    private static final String TOLD_TAKER = "is also being changed in another copy of this repository";
    private static final String TOLD_HOLDER = "is now also being changed in another copy of this repository";

    @Test
    void anEditInAnotherWorktreeOnAnotherBranchGoesAheadAndBothSessionsAreToldOnce() throws Exception {
        Path other = worktree(harness, "shop-b", "feature-b");
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent b = StandInAgent.startIn(harness, "b", "session-b", other)) {
            assertThat(a.write(CART, "a's cart\n").stdout()).doesNotContain("deny");

            ScriptRun bEdits = b.write(CART, "b's cart\n");

            assertThat(bEdits.stdout()).as(bEdits.stderr()).doesNotContain("\"deny\"").contains(TOLD_TAKER)
                    .contains("claude-code session session-a").contains("in " + harness.repo().root() + " on branch main")
                    .contains("(2 lines differ there from the merge base)")
                    .contains("`baton msg send session-a");
            assertThat(Files.readString(other.resolve(CART))).isEqualTo("b's cart\n");
            assertThat(harness.baton().locks().holderOf(other.resolve(CART).toString())).get()
                    .extracting(holder -> holder.session()).isEqualTo("session-b");

            ScriptRun aNext = a.write("README.md", "a's readme\n");
            ScriptRun aAfter = a.write("README.md", "a's readme, again\n");
            assertThat(aNext.stdout()).contains(TOLD_HOLDER).contains("in " + other + " on branch feature-b");
            assertThat(aAfter.stdout()).doesNotContain(TOLD_HOLDER);

            // B's next edit of its file is re-entrant: nothing new to tell.
            assertThat(b.write(CART, "b's cart, again\n").stdout()).doesNotContain(TOLD_TAKER);
            assertThat(harness.baton().locks().heldInSeveralCopies()).singleElement().satisfies(file -> {
                assertThat(file.path()).isEqualTo(CART);
                assertThat(file.copies()).extracting(HeldCopy::branch).containsExactlyInAnyOrder("main", "feature-b");
            });
        }
    }

    @Test
    void aNewFileNotYetAddedInTheOtherWorktreeCountsEveryLineAsDiffering() throws Exception {
        Path other = worktree(harness, "shop-b", "feature-b");
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent b = StandInAgent.startIn(harness, "b", "session-b", other)) {
            b.write("src/main/java/shop/Coupon.java", "class Coupon {\n}\n// three lines\n");

            assertThat(a.write("src/main/java/shop/Coupon.java", "class Coupon {}\n").stdout()).contains(TOLD_TAKER)
                    .contains("in " + other + " on branch feature-b (3 lines differ there from the merge base)");
        }
    }

    @Test
    void aSecondSessionInTheSameWorktreeIsStillDenied() throws Exception {
        worktree(harness, "shop-b", "feature-b");
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent c = StandInAgent.start(harness, "c", "session-c")) {
            a.write(CART, "a's cart\n");

            assertThat(c.write(CART, "c's cart\n").stdout()).contains("\"deny\"").contains("held by claude-code session");
        }
    }

    @Test
    void withEveryBranchLockedTheOtherWorktreeIsDeniedNamingTheCopy() throws Exception {
        harness.close();
        harness = HookHarness.startWithBranches(dir.resolve("locked"), BranchRule.LOCK);

        TwoWorktrees run = aHoldsTheCartAndBWritesItsOwn();

        assertThat(run.bEdits().stdout()).contains("\"deny\"")
                .contains(CART + " is the same file as " + harness.repo().path(CART) + " in another copy of this"
                        + " repository (" + harness.repo().root() + " on branch main), which shares its lock")
                .contains("`baton negotiate " + harness.repo().path(CART));
        assertThat(Files.readString(run.other().resolve(CART))).doesNotContain("b's");
        assertThat(harness.filesHeldBy("session-b")).isEmpty();
    }

    @Test
    void aRepositoryCanLockEveryBranchInItsIdentityFile() throws Exception {
        harness.repo().write(".baton-repository", "# one lock for every branch of the shop\nacme/shop\nbranches: lock\n");
        harness.repo().git("add", ".baton-repository");
        harness.repo().git("commit", "-q", "-m", "identity");

        TwoWorktrees run = aHoldsTheCartAndBWritesItsOwn();

        assertThat(run.bEdits().stdout()).contains("\"deny\"").contains("in another copy of this repository");
        assertThat(harness.baton().locks().copyOf(harness.repo().path(CART).toString()).orElseThrow().repository())
                .isEqualTo("file:acme/shop");
    }

    @Test
    void withOtherBranchesOffNothingIsSaid() throws Exception {
        harness.close();
        harness = HookHarness.startWithBranches(dir.resolve("off"), BranchRule.OFF);

        TwoWorktrees run = aHoldsTheCartAndBWritesItsOwn();

        assertThat(run.bEdits().stdout()).doesNotContain("deny").doesNotContain("another copy");
        assertThat(run.aNext().stdout()).doesNotContain("another copy");
        assertThat(harness.filesHeldBy("session-b")).hasSize(1);
    }

    /** What B's write of its own worktree's cart was answered while A holds the cart on main, and A's next call. */
    private record TwoWorktrees(Path other, ScriptRun bEdits, ScriptRun aNext) {
    }

    private TwoWorktrees aHoldsTheCartAndBWritesItsOwn() throws Exception {
        Path other = worktree(harness, "shop-b", "feature-b");
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent b = StandInAgent.startIn(harness, "b", "session-b", other)) {
            a.write(CART, "a's cart\n");
            ScriptRun bEdits = b.write(CART, "b's cart\n");
            return new TwoWorktrees(other, bEdits, a.write("README.md", "a's readme\n"));
        }
    }

    @Test
    void clonesOnTheSameBranchShareOneLock() throws Exception {
        List<Path> clones = twoClones();
        Path one = clones.get(0);
        Path two = clones.get(1);
        try (StandInAgent a = StandInAgent.startIn(harness, "a", "session-a", one);
             StandInAgent b = StandInAgent.startIn(harness, "b", "session-b", two)) {
            assertThat(a.write(CART, "a's cart\n").stdout()).doesNotContain("deny");

            ScriptRun bEdits = b.write(CART, "b's cart\n");

            assertThat(bEdits.stdout()).contains("\"deny\"").contains("is the same file as " + one.resolve(CART))
                    .contains("(" + one + " on branch main)");
            assertThat(Files.readString(two.resolve(CART))).doesNotContain("b's");

            // On a branch of its own, the clone's edit goes ahead and is told.
            TestRepo.at(two).git("switch", "-q", "-c", "feature-two");
            assertThat(b.write(CART, "b's cart\n").stdout()).doesNotContain("\"deny\"").contains(TOLD_TAKER)
                    .contains("in " + one + " on branch main");
        }
    }

    @Test
    void twoClonesWaitingForEachOthersFilesAreADeadlock() throws Exception {
        List<Path> clones = twoClones();
        Path one = clones.get(0);
        Path two = clones.get(1);
        String order = "src/main/java/shop/Order.java";
        try (StandInAgent a = StandInAgent.startIn(harness, "a", "session-a", one);
             StandInAgent b = StandInAgent.startIn(harness, "b", "session-b", two)) {
            a.write(CART, "a's cart\n");
            b.write(order, "b's order\n");
            assertThat(a.write(order, "a's order\n").stdout()).contains("\"deny\"");

            ScriptRun closing = b.write(CART, "b's cart\n");

            assertThat(closing.stdout()).contains("\"deny\"").contains("deadlock");
        }
    }

    @Test
    void aSessionsEndAndAWorktreesRemovalClearTheOverlap() throws Exception {
        Path other = worktree(harness, "shop-b", "feature-b");
        Path third = worktree(harness, "shop-c", "feature-c");
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent b = StandInAgent.startIn(harness, "b", "session-b", other);
             StandInAgent c = StandInAgent.startIn(harness, "c", "session-c", third)) {
            a.write(CART, "a's cart\n");
            b.write(CART, "b's cart\n");
            assertThat(harness.baton().locks().heldInSeveralCopies()).hasSize(1);

            b.endSession();
            assertThat(harness.baton().locks().heldInSeveralCopies()).isEmpty();

            assertThat(c.write(CART, "c's cart\n").stdout()).contains(TOLD_TAKER).doesNotContain(other.toString());
            assertThat(harness.baton().locks().heldInSeveralCopies()).singleElement()
                    .extracting(CopiesOfAFile::copies).asList().hasSize(2);

            harness.repo().git("worktree", "remove", "--force", third.toString());
            harness.baton().locks().cleanupStale();

            assertThat(harness.filesHeldBy("session-c")).isEmpty();
            assertThat(harness.baton().locks().heldInSeveralCopies()).isEmpty();
            List<AuditEntry> audit = harness.baton().ledger().read(world -> harness.baton().ledger().store().auditSince(0, 1000));
            assertThat(audit).filteredOn(entry -> entry.action().equals("release") && entry.sessionId().equals("session-c"))
                    .singleElement().satisfies(entry -> assertThat(entry.reason())
                            .isEqualTo(ReleaseReason.WORKTREE_REMOVED.wireName()));
        }
    }

    private static Path worktree(HookHarness harness, String name, String branch) throws Exception {
        Path path = harness.dir().resolve(name);
        harness.repo().git("worktree", "add", "-q", "-b", branch, path.toString());
        return path.toRealPath();
    }

    /** Two clones of one upstream, both on main: copies of one repository that share nothing on disk. */
    private List<Path> twoClones() throws Exception {
        Path upstream = dir.resolve("upstream.git");
        harness.repo().git("clone", "-q", "--bare", harness.repo().root().toString(), upstream.toString());
        return List.of(cloneOf(upstream, "clone-one"), cloneOf(upstream, "clone-two"));
    }

    private Path cloneOf(Path upstream, String name) throws Exception {
        Path path = dir.resolve(name);
        harness.repo().git("clone", "-q", upstream.toString(), path.toString());
        TestRepo clone = TestRepo.at(path);
        clone.git("config", "user.email", "test@example.com");
        clone.git("config", "user.name", "Test");
        return path.toRealPath();
    }
}
