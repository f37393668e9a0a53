package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One file, one lock, whatever path an agent gives for it: through {@code /proc/self} (which names the files of
 * whichever process opens it), another process's {@code /proc/PID/cwd}, a hard link or a bind mount. Two real agent
 * processes, each in the repository, run the real hook script; one holds the file, the other tries another path.
 */
class PathAliasHookTest extends HookFixture {

    private static final String CART = "src/main/java/shop/Cart.java";

    @Test
    void procSelfIsTheEditingAgentsOwnDirectoryNotTheSidecars() throws Exception {
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent b = StandInAgent.start(harness, "b", "session-b")) {
            assertThat(a.hook("PreToolUse", edit("session-a", harness.repo().path(CART).toString())).stdout()).isEmpty();

            ScriptRun viaSelf = b.hook("PreToolUse", edit("session-b", "/proc/self/cwd/" + CART));
            ScriptRun viaThreadSelf = b.hook("PreToolUse", edit("session-b", "/proc/thread-self/cwd/" + CART));
            ScriptRun viaItsPid = b.hook("PreToolUse", edit("session-b", "/proc/" + a.pid() + "/cwd/" + CART));

            for (ScriptRun run : java.util.List.of(viaSelf, viaThreadSelf, viaItsPid)) {
                assertThat(run.stdout()).as(run.stderr()).contains("\"deny\"")
                        .contains("is held by claude-code session session-a (pid " + a.pid());
            }
            assertThat(harness.filesHeldBy("session-b")).isEmpty();
        }
    }

    @Test
    void aProcPathThatNamesNoFileOfARepositoryIsRefused() throws Exception {
        try (StandInAgent b = StandInAgent.start(harness, "b", "session-b")) {
            ScriptRun pipe = b.hook("PreToolUse", edit("session-b", "/proc/self/fd/0"));

            assertThat(pipe.exit()).isEqualTo(2);
            assertThat(pipe.stderr()).contains("HTTP 400").contains("a file of a process rather than a file in a repository");
            assertThat(harness.lockCount()).isZero();
        }
    }

    @Test
    void aHardLinkToAHeldFileInsideOrOutsideTheRepositoryIsThatFile() throws Exception {
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent b = StandInAgent.start(harness, "b", "session-b")) {
            assertThat(a.hook("PreToolUse", edit("session-a", harness.repo().path(CART).toString())).stdout()).isEmpty();
            Path inside = harness.repo().path("src/main/java/shop/CartCopy.java");
            Path outside = Files.createDirectories(harness.dir().resolve("elsewhere")).resolve("Cart.java");
            Files.createLink(inside, harness.repo().path(CART));
            Files.createLink(outside, harness.repo().path(CART));

            ScriptRun viaInside = b.hook("PreToolUse", edit("session-b", inside.toString()));
            ScriptRun viaOutside = b.hook("PreToolUse", edit("session-b", outside.toString()));

            assertThat(viaInside.stdout()).contains("\"deny\"")
                    .contains("CartCopy.java (the same file as " + CART + ", through a hard link or a bind mount)")
                    .contains("is held by claude-code session session-a (pid " + a.pid())
                    .contains("`baton negotiate " + CART + " --reason");
            assertThat(viaOutside.stdout()).contains("\"deny\"").contains("(the same file as " + CART);
            assertThat(harness.filesHeldBy("session-b")).isEmpty();

            // The holder itself may edit its file by any of its names.
            assertThat(a.hook("PreToolUse", edit("session-a", inside.toString())).stdout()).isEmpty();
        }
    }

    @Test
    void aBindMountOfTheRepositoryIsTheSameFiles() throws Exception {
        Path view = Files.createDirectories(harness.dir().resolve("view"));
        Process mount = new ProcessBuilder("mount", "--bind", harness.repo().root().toString(), view.toString())
                .redirectErrorStream(true).start();
        assumeTrue(mount.waitFor(30, TimeUnit.SECONDS) && mount.exitValue() == 0,
                "bind mounts need root (CI has it): " + new String(mount.getInputStream().readAllBytes()));
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent b = StandInAgent.start(harness, "b", "session-b")) {
            assertThat(a.hook("PreToolUse", edit("session-a", harness.repo().path(CART).toString())).stdout()).isEmpty();

            ScriptRun viaView = b.hook("PreToolUse", edit("session-b", view.resolve(CART).toString()));

            assertThat(viaView.stdout()).contains("\"deny\"").contains("(the same file as " + CART);
            assertThat(harness.filesHeldBy("session-b")).isEmpty();
        } finally {
            new ProcessBuilder("umount", view.toString()).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private String edit(String session, String file) throws Exception {
        return harness.sample("claude-pretooluse-edit.json").replace(HookHarness.CLAUDE_SESSION, session)
                .replace(harness.repo().path(CART).toString(), file);
    }
}
