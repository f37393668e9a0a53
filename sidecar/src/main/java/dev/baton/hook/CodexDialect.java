package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.session.AgentKind;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI Codex CLI: Claude-style payloads (plus {@code turn_id}); edits arrive as {@code apply_patch} with the
 * patch in {@code tool_input.command} (a string, or an argv array whose last word is the patch).
 */
final class CodexDialect extends Dialect {

    static final CodexDialect INSTANCE = new CodexDialect();

    private CodexDialect() {
        super(AgentKind.CODEX);
    }

    @Override
    List<String> filesWritten(String tool, JsonNode input) {
        String patch = patchIn(input);
        if (patch != null) {
            return PatchPaths.of(patch);
        }
        return ClaudeCodeDialect.INSTANCE.filesWritten(tool, input);
    }

    private static String patchIn(JsonNode input) {
        if (input == null || !input.isObject()) {
            return null;
        }
        List<JsonNode> candidates = new ArrayList<>();
        JsonNode command = input.get("command");
        if (command != null && command.isArray()) {
            command.forEach(candidates::add);
        } else if (command != null) {
            candidates.add(command);
        }
        candidates.add(input.get("input"));
        candidates.add(input.get("patch"));
        for (JsonNode candidate : candidates) {
            if (candidate != null && candidate.isTextual() && PatchPaths.looksLikePatch(candidate.textValue())) {
                return candidate.textValue();
            }
        }
        return null;
    }
}
