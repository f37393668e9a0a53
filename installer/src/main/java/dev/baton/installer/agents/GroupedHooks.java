package dev.baton.installer.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.HookCommand;
import dev.baton.installer.config.JsonTrees;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Baton's hooks inside a settings file in the grouped format Claude Code, Codex CLI ({@code hooks.json}) and Gemini
 * CLI ({@code settings.json}) share: {@code {"hooks": {"PreToolUse": [{"matcher": "...", "hooks": [{"type":
 * "command", "command": "...", "timeout": N}]}]}}}. Everything else in the file is left where it is.
 */
public final class GroupedHooks {

    /** Claude Code's hook field saying what a failed hook (not started, timed out, odd exit) does to the tool call. */
    public static final String ON_FAILURE = "onFailure";
    public static final String BLOCK = "block";

    private GroupedHooks() {
    }

    /**
     * Puts Baton's hook group into every event, replacing an older Baton group in place, and returns what
     * changed (empty when the settings already hold exactly these hooks).
     */
    public static List<String> addHooks(ObjectNode settings, HookEvents wanted, Path script) {
        ObjectNode hooks = JsonTrees.objectAt(settings, "hooks", "hooks");
        List<String> changes = new ArrayList<>();
        for (HookEvents.EventHook eventHook : wanted.events()) {
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
            ObjectNode desired = group(eventHook, wanted.dialect(), script, rebuilt);
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
    public static List<String> removeHooks(ObjectNode settings) {
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
    public static List<String> missingEvents(ObjectNode settings, HookEvents wanted) {
        JsonNode hooks = settings.path("hooks");
        List<String> missing = new ArrayList<>();
        for (HookEvents.EventHook eventHook : wanted.events()) {
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

    /** The events whose Baton hook should block the tool call when it fails, and does not say so. */
    public static List<String> eventsNotBlockingOnFailure(ObjectNode settings, HookEvents wanted) {
        JsonNode hooks = settings.path("hooks");
        List<String> open = new ArrayList<>();
        for (HookEvents.EventHook eventHook : wanted.events()) {
            if (!eventHook.blocksOnFailure()) {
                continue;
            }
            for (JsonNode group : hooks.path(eventHook.event())) {
                for (JsonNode hook : group.path("hooks")) {
                    if (HookCommand.isBatons(hook.get("command")) && !BLOCK.equals(hook.path(ON_FAILURE).asText())) {
                        open.add(eventHook.event());
                    }
                }
            }
        }
        return open.stream().distinct().toList();
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

    /** Baton's hook commands in the settings, by event, in file order: what an agent runs for each event. */
    public static Map<String, List<String>> commands(ObjectNode settings) {
        Map<String, List<String>> commands = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> event : settings.path("hooks").properties()) {
            for (JsonNode group : event.getValue()) {
                for (JsonNode hook : group.path("hooks")) {
                    if (HookCommand.isBatons(hook.get("command"))) {
                        commands.computeIfAbsent(event.getKey(), key -> new ArrayList<>()).add(hook.get("command").textValue());
                    }
                }
            }
        }
        return commands;
    }

    private static ObjectNode group(HookEvents.EventHook eventHook, String dialect, Path script, ArrayNode factory) {
        ObjectNode group = factory.objectNode();
        if (eventHook.matcher() != null) {
            group.put("matcher", eventHook.matcher());
        }
        ObjectNode hook = group.putArray("hooks").addObject()
                .put("type", "command")
                .put("command", HookCommand.line(script, dialect, eventHook.event()))
                .put("timeout", eventHook.timeout());
        if (eventHook.blocksOnFailure()) {
            hook.put(ON_FAILURE, BLOCK);
        }
        return group;
    }
}
