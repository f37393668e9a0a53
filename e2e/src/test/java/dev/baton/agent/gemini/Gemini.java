package dev.baton.agent.gemini;

import dev.baton.e2e.AgentClis;
import dev.baton.e2e.AgentProcess;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Gemini CLI headless ({@code -p}, {@code --yolo}) with an API key, the model behind GOOGLE_GEMINI_BASE_URL. */
final class Gemini implements AutoCloseable {

    final AgentProcess process;

    /**
     * Selects API-key auth in ~/.gemini/settings.json, as a user does once, with comments of both kinds, which Gemini
     * CLI reads; run before {@code baton install}, which adds its hooks to the same file, keeping them.
     */
    static void configure(Machine machine) {
        try {
            Path settings = Files.createDirectories(machine.home.resolve(".gemini")).resolve("settings.json");
            Files.writeString(settings, "// Gemini CLI settings\n{\n  \"security\": {\n    /* an API key, not a Google login */\n"
                    + "    \"auth\": {\n      \"selectedType\": \"gemini-api-key\" // GEMINI_API_KEY\n    }\n  }\n}\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Gemini(Machine machine, FakeModel model, String prompt) {
        model.speaks(new GeminiWire());
        process = new AgentProcess("gemini", machine, List.of(AgentClis.bin("gemini").toString(), "-p", prompt,
                "--yolo"), Map.of(
                "GOOGLE_GEMINI_BASE_URL", model.url(),
                "GEMINI_API_KEY", "e2e-key",
                "GEMINI_CLI_TRUST_WORKSPACE", "true"));
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
