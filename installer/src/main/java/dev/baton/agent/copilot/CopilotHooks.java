package dev.baton.agent.copilot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.agents.HookEvents;
import dev.baton.installer.config.HookCommand;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.Scope;
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
public final class CopilotHooks {

    public static final String FILE_NAME = "baton.json";
    public static final String TOOLS = "edit|create|str_replace_editor|apply_patch|write|bash|shell";

    /** Timeouts in seconds ({@code timeoutSec}); checked against Copilot CLI 1.0. */
    public static final HookEvents HOOKS = new HookEvents("copilot", List.of(
            new HookEvents.EventHook("preToolUse", TOOLS, 30),
            new HookEvents.EventHook("postToolUse", TOOLS, 30),
            new HookEvents.EventHook("postToolUseFailure", TOOLS, 30),
            new HookEvents.EventHook("errorOccurred", null, 30),
            new HookEvents.EventHook("agentStop", null, 30),
            new HookEvents.EventHook("subagentStop", null, 30),
            new HookEvents.EventHook("sessionStart", null, 30),
            new HookEvents.EventHook("sessionEnd", null, 30)));

    public static final List<HookEvents.EventHook> EVENTS = HOOKS.events();

    private CopilotHooks() {
    }

    public static Path file(InstallLayout layout, Scope scope, Path project) {
        return scope == Scope.USER
                ? CopilotWiring.directory(layout).resolve("hooks").resolve(FILE_NAME)
                : project.resolve(".github/hooks").resolve(FILE_NAME);
    }

    /**
     * The whole file. The config key is passed to the script because Copilot's camelCase payloads do not
     * name the event they belong to.
     */
    public static ObjectNode document(Path script) {
        ObjectNode document = JsonText.MAPPER.createObjectNode();
        document.put("version", 1);
        ObjectNode hooks = document.putObject("hooks");
        for (HookEvents.EventHook eventHook : EVENTS) {
            ObjectNode entry = hooks.putArray(eventHook.event()).addObject();
            entry.put("type", "command");
            if (eventHook.matcher() != null) {
                entry.put("matcher", eventHook.matcher());
            }
            entry.put("bash", HookCommand.line(script, "copilot", eventHook.event()));
            entry.put("timeoutSec", eventHook.timeout());
        }
        return document;
    }

    /** Baton's hook commands in the document, by event, in file order. */
    static java.util.Map<String, List<String>> commands(ObjectNode document) {
        java.util.Map<String, List<String>> commands = new java.util.LinkedHashMap<>();
        for (java.util.Map.Entry<String, JsonNode> event : document.path("hooks").properties()) {
            for (JsonNode entry : event.getValue()) {
                if (HookCommand.isBatons(entry.get("bash"))) {
                    commands.computeIfAbsent(event.getKey(), key -> new ArrayList<>()).add(entry.get("bash").textValue());
                }
            }
        }
        return commands;
    }

    /** The config keys for which the document holds no Baton hook. */
    public static List<String> missingEvents(ObjectNode document) {
        List<String> missing = new ArrayList<>();
        for (HookEvents.EventHook eventHook : EVENTS) {
            boolean present = false;
            for (JsonNode entry : document.path("hooks").path(eventHook.event())) {
                present |= HookCommand.isBatons(entry.get("bash"));
            }
            if (!present) {
                missing.add(eventHook.event());
            }
        }
        return missing;
    }
}
