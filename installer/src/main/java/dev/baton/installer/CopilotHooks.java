package dev.baton.installer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Baton's own Copilot CLI hook file, {@code baton.json}. Format per GitHub's "Copilot hooks reference"
 * (docs.github.com/en/copilot/reference/hooks-reference): {@code {"version": 1, "hooks": {"preToolUse": [entry]}}},
 * each entry flat with {@code type}, {@code bash}, {@code timeoutSec} and, for tool events, a {@code matcher}
 * regex that must match the whole tool name. Copilot loads every {@code *.json} in {@code .github/hooks/}
 * and in {@code ~/.copilot/hooks/}.
 */
final class CopilotHooks {

    static final String FILE_NAME = "baton.json";
    static final String EDIT_TOOLS = "edit|create|str_replace_editor|apply_patch";
    static final int TIMEOUT_SECONDS = 10;

    /** One config key Baton registers; {@code matcher} is null for events that are not about a tool. */
    record EventHook(String key, String matcher) {
    }

    static final List<EventHook> EVENTS = List.of(
            new EventHook("preToolUse", EDIT_TOOLS),
            new EventHook("postToolUse", EDIT_TOOLS),
            new EventHook("sessionStart", null),
            new EventHook("sessionEnd", null),
            new EventHook("agentStop", null));

    private CopilotHooks() {
    }

    static Path file(InstallLayout layout, Scope scope, Path project) {
        return scope == Scope.USER
                ? layout.copilotDir().resolve("hooks").resolve(FILE_NAME)
                : project.resolve(".github/hooks").resolve(FILE_NAME);
    }

    /**
     * The whole file. The config key is passed to the script because Copilot's camelCase payloads do not
     * name the event they belong to.
     */
    static ObjectNode document(Path script) {
        ObjectNode document = JsonText.MAPPER.createObjectNode();
        document.put("version", 1);
        ObjectNode hooks = document.putObject("hooks");
        for (EventHook eventHook : EVENTS) {
            ObjectNode entry = hooks.putArray(eventHook.key()).addObject();
            entry.put("type", "command");
            if (eventHook.matcher() != null) {
                entry.put("matcher", eventHook.matcher());
            }
            entry.put("bash", HookCommand.line(script, "copilot", eventHook.key()));
            entry.put("timeoutSec", TIMEOUT_SECONDS);
        }
        return document;
    }

    /** The config keys for which the document holds no Baton hook. */
    static List<String> missingEvents(ObjectNode document) {
        List<String> missing = new ArrayList<>();
        for (EventHook eventHook : EVENTS) {
            boolean present = false;
            for (JsonNode entry : document.path("hooks").path(eventHook.key())) {
                present |= HookCommand.isBatons(entry.get("bash"));
            }
            if (!present) {
                missing.add(eventHook.key());
            }
        }
        return missing;
    }
}
