package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.git.TestRepo;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real hook, run as Claude Code runs it on each machine, against sidecars that share one team database. */
class TeamHookTest {

    @TempDir
    Path dir;

    private TeamMember one;
    private TeamMember two;

    @AfterEach
    void leave() {
        TeamMember.closeAll(one, two);
    }

    @Test
    void anEditOfAFileHeldOnAnotherMachineIsDeniedNamingTheHolderAndTheMachine() throws Exception {
        String url = TeamPostgres.newDatabase();
        TestRepo origin = TestRepo.create(dir.resolve("origin"), "src/Cart.java");
        one = TeamMember.join(dir, url, "laptop-ana", TeamMember.cloneOf(origin, "https://github.com/acme/shop.git", dir, "ana"),
                Map.of());
        two = TeamMember.join(dir, url, "desktop-ben", TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "ben"),
                Map.of());

        TeamMember.HookRun first = one.edit("ana-claude-session", "src/Cart.java");
        TeamMember.HookRun second = two.edit("ben-claude-session", "src/Cart.java");
        TeamMember.HookRun again = one.edit("ana-claude-session", "src/Cart.java");

        assertThat(first.out()).as(first.err()).doesNotContain("\"deny\"");
        assertThat(second.out()).contains("\"permissionDecision\":\"deny\"").contains("src/Cart.java")
                .contains("ana-clau").contains("on machine laptop-ana");
        assertThat(again.out()).as("the holder edits on").doesNotContain("\"deny\"");
    }

    @Test
    void aFileCommittedButNotPushedStaysHeldAtTurnEndAndGoesOnceItReachedTheRemote() throws Exception {
        String url = TeamPostgres.newDatabase();
        TestRepo seed = TestRepo.create(dir.resolve("seed"), "src/Cart.java");
        Path remote = dir.resolve("shop.git");
        seed.git("clone", "-q", "--bare", seed.root().toString(), remote.toString());
        seed.git("clone", "-q", remote.toString(), dir.resolve("ana").toString());
        TestRepo clone = TestRepo.create(dir.resolve("ana"));
        clone.git("reset", "-q", "--hard", "origin/main");
        one = TeamMember.join(dir, url, "laptop-ana", clone.root(), Map.of());

        assertThat(one.edit("ana-claude-session", "src/Cart.java").out()).doesNotContain("\"deny\"");
        clone.write("src/Cart.java", "class Cart { long total; }\n");
        clone.git("commit", "-q", "-am", "total");
        one.hook("ana-claude-session", "Stop", "claude-stop.json", null);

        assertThat(held(one)).as("committed here only: another machine would edit the copy before it").isTrue();
        clone.git("push", "-q", "origin", "main");
        one.hook("ana-claude-session", "Stop", "claude-stop.json", null);
        assertThat(held(one)).as("on the remote now").isFalse();
    }

    private static boolean held(TeamMember machine) {
        return machine.sidecar().baton().ledger().read(world -> world.count(dev.baton.lock.LockRows.FILES)) > 0;
    }
}
