package dev.baton.agent.copilot;

import dev.baton.e2e.AgentClis;
import dev.baton.e2e.AgentProcess;
import dev.baton.e2e.ChatCompletionsWire;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * GitHub Copilot CLI in provider mode (no GitHub login): one prompt with {@code -p}, all tools allowed, the
 * model behind a Chat Completions endpoint. The model name picks the edit tools: GPT-4.1 gets {@code create}
 * and {@code edit}, GPT-5.4 gets the freeform {@code apply_patch}.
 */
public final class Copilot implements AutoCloseable {

    public final AgentProcess process;

    public Copilot(Machine machine, FakeModel model, String modelName, String prompt) {
        this(machine, model, modelName, prompt, Map.of());
    }

    /** {@code extraEnv}: more of the CLI's environment, which its hooks inherit (e.g. {@code CLAUDE_FILE_LOCK=0}). */
    public Copilot(Machine machine, FakeModel model, String modelName, String prompt, Map<String, String> extraEnv) {
        model.speaks(new ChatCompletionsWire());
        Map<String, String> env = new HashMap<>(Map.of(
                "COPILOT_PROVIDER_BASE_URL", model.url() + "/v1",
                "COPILOT_PROVIDER_API_KEY", "sk-e2e",
                "COPILOT_MODEL", modelName,
                "COPILOT_AUTO_UPDATE", "false"));
        env.putAll(extraEnv);
        process = new AgentProcess("copilot", machine, List.of(AgentClis.bin("copilot").toString(), "-p", prompt,
                "--allow-all-tools", "--no-auto-update"), env);
    }

    /** Waits until the prompt is done and the CLI (with its sessionEnd hook) has exited. */
    public int awaitExit() {
        return process.awaitExit();
    }

    @Override
    public void close() {
        process.close();
    }
}
