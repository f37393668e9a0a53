package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.support.EventClient;
import dev.baton.support.TestSidecar;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class EventCommandsTest {

    @TempDir
    Path dir;

    /** Captures what a command prints and counts the lines as they come. */
    private static final class Lines extends Writer {
        private final StringBuilder text = new StringBuilder();
        private final CountDownLatch firstLine = new CountDownLatch(1);

        @Override
        public synchronized void write(char[] chars, int offset, int length) {
            text.append(chars, offset, length);
            if (text.indexOf("\n") >= 0) {
                firstLine.countDown();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }

        synchronized List<String> lines() {
            return text.toString().lines().toList();
        }
    }

    private static CommandLine command(String name, TestSidecar baton, Writer out, StringWriter err) {
        CommandLine line = BatonCommand.commandLine();
        Object command = line.getSubcommands().get(name).getCommand();
        Map<String, String> env = Map.of("BATON_HOME", baton.sidecar().home().dir().toString());
        if (command instanceof WatchCommand watch) {
            watch.environment = env;
        } else if (command instanceof DeadlocksCommand deadlocks) {
            deadlocks.environment = env;
        }
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line;
    }

    @Test
    void watchPrintsTheSnapshotThenOneLinePerEvent() throws Exception {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            Lines out = new Lines();
            StringWriter err = new StringWriter();
            CommandLine line = command("watch", baton, out, err);
            CompletableFuture<Integer> watching = CompletableFuture.supplyAsync(() -> line.execute("watch", "--count", "4"));
            assertThat(out.firstLine.await(10, TimeUnit.SECONDS)).isTrue();

            String bob = baton.register("bob");
            baton.acquire(bob, baton.file("App.java"), 0);
            baton.release(bob, baton.file("App.java"));
            baton.endSession(bob);

            assertThat(watching.get(10, TimeUnit.SECONDS)).isZero();
            List<String> lines = out.lines();
            assertThat(lines).hasSize(5);
            assertThat(lines.get(0)).isEqualTo("snapshot at #0: 0 session(s), 0 lock(s), 0 wait(s), 0 deadlock(s)");
            assertThat(lines.get(1)).startsWith("#1 ").contains("session.started bob (claude-code)");
            assertThat(lines.get(2)).startsWith("#2 ").contains("lock.acquired ").endsWith("App.java by bob");
            assertThat(lines.get(3)).startsWith("#3 ").contains("lock.released ").endsWith("App.java by bob (released)");
            assertThat(lines.get(4)).startsWith("#4 ").endsWith("session.ended bob (session-ended)");
            assertThat(err.toString()).isEmpty();
        }
    }

    @Test
    void watchWithATableRedrawsTheHeldLocksAtEachChange() throws Exception {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            Lines out = new Lines();
            CommandLine line = command("watch", baton, out, new StringWriter());
            CompletableFuture<Integer> watching = CompletableFuture.supplyAsync(() -> line.execute("watch", "-w", "--count", "2"));
            assertThat(out.firstLine.await(10, TimeUnit.SECONDS)).isTrue();

            String bob = baton.register("bob");
            baton.acquire(bob, baton.file("App.java"), 0);

            assertThat(watching.get(10, TimeUnit.SECONDS)).isZero();
            List<String> lines = out.lines();
            assertThat(lines.get(0)).isEqualTo("held locks after #0 (0):");
            assertThat(lines).contains("no file locks held", "held locks after #2 (1):");
            assertThat(lines.get(lines.size() - 2)).startsWith("FILE ").contains("AGENT");
            assertThat(lines.get(lines.size() - 1)).contains("App.java").contains("claude-code").contains("bob");
            assertThat(String.join("\n", lines)).doesNotContain("\u001b[");
        }
    }

    @Test
    void watchSinceReplaysWhatHappenedAfterThatEvent() throws Exception {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            String bob = baton.register("bob");
            baton.acquire(bob, baton.file("App.java"), 0);
            Lines out = new Lines();
            CommandLine line = command("watch", baton, out, new StringWriter());
            assertThat(line.execute("watch", "--since", "1", "--count", "1", "--json")).isZero();
            assertThat(out.lines()).hasSize(1);
            assertThat(out.lines().get(0)).startsWith("{\"type\":\"event\",\"seq\":2,");
        }
    }

    @Test
    void watchSaysSoWhenNoSidecarIsRunning() {
        StringWriter err = new StringWriter();
        CommandLine line = BatonCommand.commandLine();
        ((WatchCommand) line.getSubcommands().get("watch").getCommand()).environment =
                Map.of("BATON_HOME", dir.resolve("nothing").toString());
        line.setErr(new PrintWriter(err, true));
        assertThat(line.execute("watch")).isEqualTo(2);
        assertThat(err.toString()).contains("no sidecar is running");
    }

    @Test
    void deadlocksListsTheOpenCyclesWithTheirVictim() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start(); EventClient client = baton.events(null)) {
            StringWriter none = new StringWriter();
            assertThat(command("deadlocks", baton, none, new StringWriter()).execute("deadlocks")).isZero();
            assertThat(none.toString()).isEqualTo("no deadlocks" + System.lineSeparator());

            String alice = baton.register("alice");
            String bob = baton.register("bob");
            baton.acquire(alice, baton.file("A.java"), 0);
            baton.acquire(bob, baton.file("B.java"), 0);
            baton.acquireInBackground(alice, baton.file("B.java"), 60);
            client.awaitEvent("wait.started");
            baton.acquireInBackground(bob, baton.file("A.java"), 60);
            JsonNode deadlock = client.awaitEvent("deadlock.detected").path("data").path("deadlock");

            StringWriter out = new StringWriter();
            assertThat(command("deadlocks", baton, out, new StringWriter()).execute("deadlocks")).isZero();
            List<String> lines = out.toString().lines().toList();
            assertThat(lines.get(0)).startsWith(deadlock.path("id").asText() + " since ").endsWith(": alice → bob → alice");
            assertThat(lines.get(1)).startsWith("  files: ").contains("B.java", "A.java");
            assertThat(lines.get(2)).startsWith("  victim: bob ");
            baton.endSession(bob);
            baton.endSession(alice);
        }
    }
}
