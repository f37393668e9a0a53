package dev.baton.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Baton adds to each edit inside the real Claude Code and Copilot CLI. The model asks for one new file per
 * answer, {@code bench.edits} answers in a row; per edit, the fake model times its answer's end to the CLI's next
 * turn request (which carries the tool result): the PreToolUse hook, the edit, the PostToolUse hook and the
 * CLI's own work. Each round runs every agent with Baton on (installed hooks, a warm sidecar) and off
 * ({@code CLAUDE_FILE_LOCK=0} in the CLI's environment, which its hooks inherit), in alternating order, so the
 * machine's load hits both alike; a first, shorter round warms the CLIs and is not counted.
 *
 * <p>Not part of {@code mvn verify} (Failsafe's default includes are {@code *IT}); the command is in
 * docs/PERFORMANCE.md, "Inside the real agents". It checks what it measures: every file written, by an edit the
 * model was told succeeded, locked by the session when Baton is on and never locked when it is off.
 */
class AgentEditBench {

    private static final int EDITS = Integer.getInteger("bench.edits", 40);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
    /** Edits per conversation of the first round, which is not counted. */
    private static final int FIRST_ROUND_EDITS = 10;
    /** Edits of a session the benchmark plays itself through the installed hook, before anything is measured. */
    private static final int WARM_UP_EDITS = Integer.getInteger("bench.warmup", 300);

    @TempDir
    Path root;

    @Test
    void batonOnAndOffInsideClaudeCodeAndCopilotCli() {
        EditLatencies latencies = new EditLatencies();
        try (Machine machine = new Machine(root)) {
            machine.install("--claude", "--copilot");
            warmSidecar(machine);
            for (int round = 0; round <= ROUNDS; round++) {
                for (BenchedAgent agent : BenchedAgent.values()) {
                    boolean batonFirst = (round + agent.ordinal()) % 2 == 0;
                    for (boolean baton : List.of(batonFirst, !batonFirst)) {
                        List<Double> ms = edits(machine, agent, baton, round,
                                round == 0 ? Math.min(FIRST_ROUND_EDITS, EDITS) : EDITS);
                        if (round > 0) {
                            latencies.add(agent, baton, round, ms);
                        }
                    }
                }
            }
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        List<Path> written = latencies.write(Path.of(System.getProperty("bench.out", "target")), stamp);
        System.out.printf("%nInside the real agents: %d rounds of %d edits per agent, Baton on and off%n%s%s%n",
                ROUNDS, EDITS, latencies.table(), written);
        assertThat(latencies.rows()).hasSize(2 * BenchedAgent.values().length)
                .allSatisfy(row -> assertThat(row.edits()).isEqualTo(ROUNDS * EDITS));
    }

    /**
     * One conversation of {@code count} file creations in a new folder; returns each edit's time in ms after
     * checking that every edit happened and that the files are locked (Baton on) or not (off).
     */
    private List<Double> edits(Machine machine, BenchedAgent agent, boolean baton, int round, int count) {
        String folder = "runs/" + agent.name().toLowerCase() + "-" + round + "-" + (baton ? "on" : "off");
        List<String> files = new ArrayList<>();
        List<Step> script = new ArrayList<>();
        try {
            Files.createDirectories(machine.repo.resolve(folder));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int i = 1; i <= count; i++) {
            String file = String.format("%s/F%02d.txt", folder, i);
            files.add(file);
            script.add(agent.create(machine.repo.resolve(file), content(file)));
        }
        Step.Pause pause = new Step.Pause();
        script.add(pause);
        script.add(Step.say("Created."));
        try (FakeModel model = new FakeModel(script)) {
            agent.converse(machine, model, baton ? Map.of() : Map.of("CLAUDE_FILE_LOCK", "0"), pause, () -> {
                for (String file : files) {
                    assertThat(machine.read(file)).as("%s %s%n%s", agent.label, file, model.everythingSent())
                            .isEqualTo(content(file));
                }
                List<String> locked = machine.lockedFiles();
                if (baton) {
                    assertThat(locked).as("%s with Baton on holds every file it created", agent.label)
                            .containsAll(files);
                } else {
                    assertThat(locked).as("%s with CLAUDE_FILE_LOCK=0 locks nothing", agent.label)
                            .doesNotContainAnyElementsOf(files);
                }
            });
            List<Double> ms = new ArrayList<>();
            List<FakeModel.Turn> turns = model.turns();
            assertThat(turns).as(model.everythingSent()).hasSizeGreaterThan(count);
            for (int i = 0; i < count; i++) {
                FakeModel.Turn edit = turns.get(i);
                FakeModel.Turn next = turns.get(i + 1);
                assertThat(edit.step()).isSameAs(script.get(i));
                assertThat(agent.toolResult(next.request())).as("the result of %s in %s", files.get(i), tail(next))
                        .contains(Path.of(files.get(i)).getFileName().toString()).doesNotStartWith("error");
                ms.add((next.arrived() - edit.answered()) / 1e6);
            }
            machine.commitAll();
            return ms;
        }
    }

    /** How long a conversation on this model's script may take: a turn's time for every step. */
    static Duration conversation(FakeModel model) {
        return AgentProcess.TURN.plus(Duration.ofSeconds(20).multipliedBy(model.scriptLength()));
    }

    /** The end of a request, for a failure's message. */
    private static String tail(FakeModel.Turn turn) {
        String body = turn.request().body();
        return body.length() > 3000 ? "…" + body.substring(body.length() - 3000) : body;
    }

    private static String content(String file) {
        return "Created as " + file + ".\n";
    }

    /**
     * Starts the sidecar through the installed Claude Code hook and warms it up with a session of
     * {@link #WARM_UP_EDITS} edits (PreToolUse and PostToolUse, run as Claude Code runs them: {@code sh -c} with
     * the payload on stdin), then ends that session: a user's sidecar is started once and then runs for hours.
     */
    private static void warmSidecar(Machine machine) {
        JsonNode hooks = json(machine.home.resolve(".claude/settings.json")).path("hooks");
        String session = UUID.randomUUID().toString();
        Path folder = machine.repo.resolve("warm-up");
        for (int i = 1; i <= WARM_UP_EDITS; i++) {
            Path file = folder.resolve("W" + i + ".txt");
            ObjectNode input = FakeModel.JSON.createObjectNode().put("file_path", file.toString())
                    .put("content", "warm\n");
            String toolUse = "toolu_warm" + i;
            String pre = runHook(machine, hooks, "PreToolUse", payload(machine, session, "PreToolUse")
                    .put("tool_name", "Write").put("tool_use_id", toolUse).set("tool_input", input));
            assertThat(pre).as("the warm-up's edit %d is allowed", i).isEmpty();
            machine.write("warm-up/W" + i + ".txt", "warm\n");
            ObjectNode post = payload(machine, session, "PostToolUse").put("tool_name", "Write")
                    .put("tool_use_id", toolUse).set("tool_input", input);
            post.putObject("tool_response").put("type", "create").put("filePath", file.toString());
            runHook(machine, hooks, "PostToolUse", post);
        }
        assertThat(machine.lockedFiles()).hasSize(WARM_UP_EDITS);
        runHook(machine, hooks, "SessionEnd", payload(machine, session, "SessionEnd").put("reason", "other"));
        assertThat(machine.lockedFiles()).isEmpty();
        machine.commitAll();
    }

    private static ObjectNode payload(Machine machine, String session, String event) {
        return FakeModel.JSON.createObjectNode().put("session_id", session)
                .put("transcript_path", machine.home.resolve(".claude/projects/bench/" + session + ".jsonl").toString())
                .put("cwd", machine.repo.toString()).put("permission_mode", "bypassPermissions")
                .put("hook_event_name", event);
    }

    /** Runs Baton's command for {@code event} from Claude Code's settings, as Claude Code runs it. */
    private static String runHook(Machine machine, JsonNode hooks, String event, JsonNode payload) {
        for (JsonNode group : hooks.path(event)) {
            for (JsonNode hook : group.path("hooks")) {
                String command = hook.path("command").asText();
                if (command.contains("baton-hook")) {
                    return machine.run(machine.repo, List.of("/bin/sh", "-c", command), payload.toString());
                }
            }
        }
        throw new IllegalStateException("no Baton hook for " + event + " in " + hooks);
    }

    private static JsonNode json(Path file) {
        try {
            return FakeModel.JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
