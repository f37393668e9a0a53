package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.git.TestRepo;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real hook, run as Claude Code runs it on each machine, against sidecars that share one team database. */
class TeamHookTest {

    private static final Path HOOK = Path.of("..", "hook-scripts", "baton-hook").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private TeamMember one;
    private TeamMember two;

    @AfterEach
    void leave() {
        if (one != null) {
            one.close();
        }
        if (two != null) {
            two.close();
        }
    }

    @Test
    void anEditOfAFileHeldOnAnotherMachineIsDeniedNamingTheHolderAndTheMachine() throws Exception {
        String url = TeamPostgres.newDatabase();
        TestRepo origin = TestRepo.create(dir.resolve("origin"), "src/Cart.java");
        one = TeamMember.join(dir, url, "laptop-ana", TeamMember.cloneOf(origin, "https://github.com/acme/shop.git", dir, "ana"),
                Map.of());
        two = TeamMember.join(dir, url, "desktop-ben", TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "ben"),
                Map.of());

        Result first = edit(one, "ana-claude-session", "src/Cart.java");
        Result second = edit(two, "ben-claude-session", "src/Cart.java");
        Result again = edit(one, "ana-claude-session", "src/Cart.java");

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

        assertThat(edit(one, "ana-claude-session", "src/Cart.java").out()).doesNotContain("\"deny\"");
        clone.write("src/Cart.java", "class Cart { long total; }\n");
        clone.git("commit", "-q", "-am", "total");
        hook(one, "ana-claude-session", "Stop", "claude-stop.json", null);

        assertThat(held(one)).as("committed here only: another machine would edit the copy before it").isTrue();
        clone.git("push", "-q", "origin", "main");
        hook(one, "ana-claude-session", "Stop", "claude-stop.json", null);
        assertThat(held(one)).as("on the remote now").isFalse();
    }

    private static boolean held(TeamMember machine) {
        return machine.sidecar().baton().ledger().read(world -> world.count(dev.baton.lock.LockRows.FILES)) > 0;
    }

    private record Result(int exit, String out, String err) {
    }

    /** Claude Code's PreToolUse for an Edit of {@code file} in the machine's clone, through the real hook script. */
    private Result edit(TeamMember machine, String session, String file) throws IOException, InterruptedException {
        return hook(machine, session, "PreToolUse", "claude-pretooluse-edit.json", file);
    }

    private Result hook(TeamMember machine, String session, String event, String sample, String file)
            throws IOException, InterruptedException {
        String payload;
        try (InputStream in = TeamHookTest.class.getResourceAsStream("/hook-samples/" + sample)) {
            payload = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01", session)
                    .replace("/home/dev/shop/src/main/java/shop/Cart.java", file == null ? "" : machine.file(file))
                    .replace("/home/dev/shop", machine.workingTree().toString());
        }
        Path out = Files.createTempFile(dir, "out", ".json");
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(List.of(HOOK.toString(), "claude", event))
                .directory(machine.workingTree().toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        List.of("CLAUDE_FILE_LOCK", "BATON", "BATON_FAIL_OPEN", "BATON_BIN", "XDG_STATE_HOME")
                .forEach(builder.environment()::remove);
        builder.environment().put("BATON_HOME", machine.home().toString());
        builder.environment().put("BATON_HOOK_TIMEOUT", "45");
        Process hook = builder.start();
        try (OutputStream stdin = hook.getOutputStream()) {
            stdin.write(payload.getBytes(StandardCharsets.UTF_8));
        }
        if (!hook.waitFor(90, TimeUnit.SECONDS)) {
            hook.destroyForcibly();
            throw new AssertionError("the hook did not finish");
        }
        return new Result(hook.exitValue(), Files.readString(out), Files.readString(err));
    }
}
