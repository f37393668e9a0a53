package dev.baton.agent.codex;

import dev.baton.e2e.AgentClis;
import dev.baton.e2e.AgentProcess;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

/**
 * Codex CLI's {@code exec}: one prompt, no sandbox or approvals, the model behind a custom provider on the
 * Responses API. GPT-5.5 is a model Codex knows, so it offers {@code apply_patch} and {@code exec_command}.
 */
final class Codex implements AutoCloseable {

    final AgentProcess process;

    /** Points Codex at the fake model: the provider goes into ~/.codex/config.toml, before or after install. */
    static void configure(Machine machine, FakeModel model) {
        model.speaks(new ResponsesWire());
        try {
            Path config = Files.createDirectories(machine.home.resolve(".codex")).resolve("config.toml");
            String provider = "model = \"gpt-5.5\"\nmodel_provider = \"fake\"\n\n[model_providers.fake]\n"
                    + "name = \"fake\"\nbase_url = \"" + model.url() + "/v1\"\nwire_api = \"responses\"\n"
                    + "env_key = \"FAKE_MODEL_KEY\"\n\n";
            String existing = Files.exists(config) ? Files.readString(config) : "";
            // Top-level keys must come before the first table, so the provider goes first.
            Files.writeString(config, provider + existing, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Codex(Machine machine, String prompt) {
        process = new AgentProcess("codex", machine, List.of(AgentClis.bin("codex").toString(), "exec",
                "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", prompt),
                Map.of("FAKE_MODEL_KEY", "sk-e2e"));
        process.closeInput();
    }

    int awaitExit() {
        return process.awaitExit();
    }

    @Override
    public void close() {
        process.close();
    }
}
