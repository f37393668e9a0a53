package dev.baton.deadlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.support.TestSidecar;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The team's edges as a team sidecar hands them to the deadlock module, checked here without a database: cycles
 * through another machine, the victim every machine agrees on, and team edges this machine's own state has outrun.
 */
class TeamWaitsTest {

    private static final String HERE = "machine-one";
    private static final String REMOTE = "machine-two/bob";
    private static final Instant EARLY = Instant.parse("2026-01-01T09:00:00Z");
    private static final Instant LATE = Instant.parse("2026-01-01T10:00:00Z");

    @TempDir
    Path dir;

    @Test
    void aCycleThroughAnotherMachinesSessionIsADeadlockWhoseVictimIsTheYoungestThere() {
        try (TestSidecar baton = TestSidecar.in(dir).env(Map.of()).start()) {
            String alice = baton.register("alice");
            String a = baton.file("A.java");
            baton.acquire(alice, a, 0);
            Deadlocks deadlocks = baton.modules().deadlocks();
            deadlocks.editDenied(alice, baton.file("B.java"));

            deadlocks.teamWaits(crossing(baton, alice, EARLY, LATE));

            assertThat(deadlocks.deadlocks()).singleElement().satisfies(deadlock -> {
                assertThat(deadlock.sessions()).containsExactly(alice, REMOTE);
                assertThat(deadlock.files()).containsExactly(baton.file("B.java"), a);
                assertThat(deadlock.victim()).isEqualTo(REMOTE);
            });
            assertThat(deadlocks.takeAdvice(alice)).as("the victim's own machine tells it").isEmpty();
            assertThat(deadlocks.denyNote(alice)).hasValueSatisfying(note -> assertThat(note)
                    .contains("claude-code bob \"reviewer\" on machine machine-two, the youngest"));
        }
    }

    @Test
    void theVictimIsThisMachinesSessionWhenItStartedLaterAndIsToldAtItsNextHookCall() {
        try (TestSidecar baton = TestSidecar.in(dir).env(Map.of()).start()) {
            String alice = aliceHoldsAAndIsDeniedB(baton);
            Deadlocks deadlocks = baton.modules().deadlocks();

            deadlocks.teamWaits(crossing(baton, alice, LATE, EARLY));

            assertThat(deadlocks.deadlocks()).singleElement().extracting(Deadlock::victim).isEqualTo(alice);
            assertThat(deadlocks.takeAdvice(alice)).hasValueSatisfying(advice -> assertThat(advice.text())
                    .contains("You are the youngest session in it").contains("release A.java")
                    .contains("held by claude-code bob \"reviewer\" on machine machine-two"));
        }
    }

    @Test
    void sessionsThatStartedAtOnceAreOrderedByMachineThenSessionSoEveryMachineChoosesTheSame() {
        try (TestSidecar baton = TestSidecar.in(dir).env(Map.of()).start()) {
            String alice = aliceHoldsAAndIsDeniedB(baton);
            Deadlocks deadlocks = baton.modules().deadlocks();

            deadlocks.teamWaits(crossing(baton, alice, EARLY, EARLY));

            assertThat(deadlocks.deadlocks()).singleElement().extracting(Deadlock::victim)
                    .as("machine-two comes after machine-one").isEqualTo(REMOTE);
        }
    }

    @Test
    void aTeamEdgeIntoAFileThisMachineGaveBackOrOutOfAWaitThatEndedClosesNoCycle() {
        try (TestSidecar baton = TestSidecar.in(dir).env(Map.of()).start()) {
            String alice = baton.register("alice");
            String carol = baton.register("carol");
            String a = baton.file("A.java");
            baton.acquire(alice, a, 0);
            Deadlocks deadlocks = baton.modules().deadlocks();
            deadlocks.editDenied(alice, baton.file("B.java"));
            TeamWaits read = crossing(baton, alice, EARLY, LATE);
            deadlocks.teamWaits(read);
            assertThat(deadlocks.deadlocks()).hasSize(1);

            baton.release(alice, a); // the database still says bob waits for alice's A.java

            assertThat(deadlocks.deadlocks()).as("alice holds nothing bob waits for").isEmpty();

            baton.acquire(alice, a, 0);
            assertThat(deadlocks.deadlocks()).as("and holds it again").hasSize(1);

            baton.endSession(alice);
            baton.acquire(carol, a, 0);
            assertThat(deadlocks.deadlocks()).as("alice's wait ended with her session").isEmpty();
        }
    }

    /** Registers alice, who holds A.java and was just denied an edit of B.java (another machine's file). */
    private static String aliceHoldsAAndIsDeniedB(TestSidecar baton) {
        String alice = baton.register("alice");
        baton.acquire(alice, baton.file("A.java"), 0);
        baton.modules().deadlocks().editDenied(alice, baton.file("B.java"));
        return alice;
    }

    /**
     * What a team sidecar reads when {@code alice} (this machine, holding A.java) waits for B.java, which bob holds on
     * machine two, and bob waits for A.java.
     */
    private static TeamWaits crossing(TestSidecar baton, String alice, Instant aliceStarted, Instant bobStarted) {
        return new TeamWaits(HERE,
                Map.of(alice, Map.of(REMOTE, files(baton.file("B.java"))), REMOTE, Map.of(alice, files(baton.file("A.java")))),
                Map.of(alice, new TeamWaits.Member(HERE, alice, "claude-code", null, aliceStarted),
                        REMOTE, new TeamWaits.Member("machine-two", "bob", "claude-code", "reviewer", bobStarted)));
    }

    private static SortedSet<String> files(String file) {
        return new TreeSet<>(java.util.List.of(file));
    }
}
