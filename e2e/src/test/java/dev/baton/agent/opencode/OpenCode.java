package dev.baton.agent.opencode;

import dev.baton.e2e.AgentClis;
import dev.baton.e2e.AgentProcess;
import dev.baton.e2e.ChatCompletionsWire;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * OpenCode headless ({@code opencode run PROMPT}), the model an OpenAI-compatible provider of the user's config whose
 * base URL is the fake model's. Everything that would reach beyond 127.0.0.1 is turned off: the update check, sharing,
 * the models.dev catalogue, LSP downloads, the built-in npm plug-ins, and the npm install of {@code @opencode-ai/plugin}
 * OpenCode makes in each config directory (skipped when the directory's lock file already lists it).
 */
final class OpenCode implements AutoCloseable {

    final AgentProcess process;

    /**
     * The user's opencode.json as a user writes it once, with a comment and a trailing comma OpenCode accepts; run
     * before {@code baton install}, which adds its MCP server to the same file, keeping the rest.
     */
    static void configure(Machine machine) {
        try {
            Path dir = Files.createDirectories(machine.home.resolve(".config/opencode"));
            Files.writeString(dir.resolve("opencode.json"), """
                    {
                      // the scripted model, as a provider of the user's own
                      "provider": {
                        "e2e": {
                          "npm": "@ai-sdk/openai-compatible",
                          "name": "e2e",
                          "options": { "baseURL": "{env:E2E_MODEL_URL}", "apiKey": "e2e-key" },
                          "models": { "scripted": { "name": "scripted", "tool_call": true } }
                        }
                      },
                      "model": "e2e/scripted",
                      "small_model": "e2e/scripted",
                      "autoupdate": false,
                      "share": "disabled",
                      "permission": { "edit": "allow", "bash": "allow", "external_directory": "allow" },
                    }
                    """);
            Files.createDirectories(dir.resolve("node_modules"));
            Files.writeString(dir.resolve("package-lock.json"),
                    "{\"packages\":{\"\":{\"dependencies\":{\"@opencode-ai/plugin\":\"" + AgentClis.OPENCODE_VERSION + "\"}}}}\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    OpenCode(Machine machine, FakeModel model, String prompt) {
        model.speaks(new ChatCompletionsWire());
        process = new AgentProcess("opencode", machine, List.of(AgentClis.bin("opencode").toString(), "run", prompt),
                Map.of("E2E_MODEL_URL", model.url() + "/v1",
                        "OPENCODE_DISABLE_AUTOUPDATE", "1",
                        "OPENCODE_DISABLE_SHARE", "1",
                        "OPENCODE_DISABLE_MODELS_FETCH", "1",
                        "OPENCODE_DISABLE_LSP_DOWNLOAD", "1",
                        "OPENCODE_DISABLE_DEFAULT_PLUGINS", "1"));
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
