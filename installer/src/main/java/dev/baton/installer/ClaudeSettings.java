package dev.baton.installer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Baton's hooks inside a Claude Code settings file:
 * {@code {"hooks": {"PreToolUse": [{"matcher": "...", "hooks": [{"type": "command", ...}]}]}}}.
 * Everything else in the file is left exactly where it is.
 */
final class ClaudeSettings {

    static final String EDIT_TOOLS = "Edit|Write|MultiEdit|NotebookEdit";

    /** One event Baton listens to; {@code matcher} is null for events that are not about a tool. */
    record EventHook(String event, String matcher, int timeoutSeconds) {
    }

    static final List<EventHook> EVENTS = List.of(
            new EventHook("PreToolUse", EDIT_TOOLS, 10),
            new EventHook("PostToolUse", EDIT_TOOLS, 10),
            new EventHook("Stop", null, 15),
            new EventHook("SessionStart", null, 15),
            new EventHook("SessionEnd", null, 15));

    private ClaudeSettings() {
    }

    static Path file(InstallLayout layout, Scope scope, Path project) {
        return switch (scope) {
            case USER -> layout.claudeDir().resolve("settings.json");
            case PROJECT -> project.resolve(".claude/settings.json");
            case LOCAL -> project.resolve(".claude/settings.local.json");
        };
    }

    /**
     * Puts Baton's hook group into every event, replacing an older Baton group in place, and returns what
     * changed (empty when the settings already hold exactly these hooks).
     */
    static List<String> addHooks(ObjectNode settings, Path script) {
        ObjectNode hooks = JsonTrees.objectAt(settings, "hooks", "hooks");
        List<String> changes = new ArrayList<>();
        for (EventHook eventHook : EVENTS) {
            ArrayNode groups = JsonTrees.arrayAt(hooks, eventHook.event(), "hooks." + eventHook.event());
            ArrayNode rebuilt = groups.arrayNode();
            int position = -1;
            for (JsonNode group : groups) {
                JsonNode stripped = withoutBatonHooks(group);
                if (stripped != group && position < 0) {
                    position = rebuilt.size();
                }
                if (stripped != null) {
                    rebuilt.add(stripped);
                }
            }
            ObjectNode desired = group(eventHook, script, rebuilt);
            if (position < 0) {
                rebuilt.add(desired);
            } else {
                rebuilt.insert(position, desired);
            }
            if (!rebuilt.equals(groups)) {
                changes.add((position < 0 ? "+ " : "~ ") + eventHook.event() + " hook");
                hooks.set(eventHook.event(), rebuilt);
            }
        }
        return changes;
    }

    /**
     * Removes every hook whose command is Baton's, then the matcher groups, event lists and {@code hooks}
     * object that this left empty. Containers that were already empty stay.
     */
    static List<String> removeHooks(ObjectNode settings) {
        JsonNode hooksNode = settings.get("hooks");
        if (hooksNode == null || !hooksNode.isObject()) {
            return List.of();
        }
        ObjectNode hooks = (ObjectNode) hooksNode;
        List<String> changes = new ArrayList<>();
        for (String event : hooks.properties().stream().map(Map.Entry::getKey).toList()) {
            JsonNode groups = hooks.get(event);
            if (!groups.isArray()) {
                continue;
            }
            ArrayNode kept = ((ArrayNode) groups).arrayNode();
            for (JsonNode group : groups) {
                JsonNode stripped = withoutBatonHooks(group);
                if (stripped != null) {
                    kept.add(stripped);
                }
            }
            if (!kept.equals(groups)) {
                changes.add("- " + event + " hook");
                if (kept.isEmpty()) {
                    hooks.remove(event);
                } else {
                    hooks.set(event, kept);
                }
            }
        }
        if (!changes.isEmpty() && hooks.isEmpty()) {
            settings.remove("hooks");
        }
        return changes;
    }

    /** The events for which the settings hold no Baton hook. */
    static List<String> missingEvents(ObjectNode settings) {
        JsonNode hooks = settings.path("hooks");
        List<String> missing = new ArrayList<>();
        for (EventHook eventHook : EVENTS) {
            boolean present = false;
            for (JsonNode group : hooks.path(eventHook.event())) {
                for (JsonNode hook : group.path("hooks")) {
                    present |= HookCommand.isBatons(hook.get("command"));
                }
            }
            if (!present) {
                missing.add(eventHook.event());
            }
        }
        return missing;
    }

    /**
     * The group without Baton's hooks: the same instance when it has none, a copy when it has others too,
     * and null when Baton's were all it held.
     */
    private static JsonNode withoutBatonHooks(JsonNode group) {
        JsonNode hooks = group.path("hooks");
        if (!hooks.isArray()) {
            return group;
        }
        ArrayNode others = ((ArrayNode) hooks).arrayNode();
        for (JsonNode hook : hooks) {
            if (!HookCommand.isBatons(hook.get("command"))) {
                others.add(hook);
            }
        }
        if (others.size() == hooks.size()) {
            return group;
        }
        if (others.isEmpty()) {
            return null;
        }
        ObjectNode copy = ((ObjectNode) group).deepCopy();
        copy.set("hooks", others);
        return copy;
    }

    private static ObjectNode group(EventHook eventHook, Path script, ArrayNode factory) {
        ObjectNode group = factory.objectNode();
        if (eventHook.matcher() != null) {
            group.put("matcher", eventHook.matcher());
        }
        group.putArray("hooks").addObject()
                .put("type", "command")
                .put("command", HookCommand.line(script, "claude", eventHook.event()))
                .put("timeout", eventHook.timeoutSeconds());
        return group;
    }
}
