package dev.baton.agent.codex;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.HookCommand;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The trust Codex CLI requires before it runs a hook from {@code hooks.json}: an entry
 * {@code [hooks.state."FILE:EVENT:GROUP:HANDLER"] trusted_hash = "sha256:…"} in {@code ~/.codex/config.toml}.
 * The hash is computed as Codex 0.169 computes it ({@code command_hook_hash} in codex-rs/hooks/src/engine/discovery.rs
 * and {@code version_for_toml} in codex-rs/config/src/fingerprint.rs): SHA-256 of the compact JSON, keys sorted, of
 * {@code {"event_name": "pre_tool_use", "matcher": M, "hooks": [{"type": "command", "command": C, "timeout": T,
 * "async": A}]}} with absent values left out. {@code codex app-server}'s {@code hooks/list} reports the same value
 * as {@code currentHash}.
 */
public final class CodexTrust {

    private static final JsonMapper SORTED = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();
    private static final int CODEX_DEFAULT_TIMEOUT = 600;

    private CodexTrust() {
    }

    /** Baton's handlers in a Codex {@code hooks.json} tree, as trust key → the hash Codex expects for it. */
    public static Map<String, String> batonEntries(Path hooksFile, ObjectNode tree) {
        Map<String, String> entries = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> event : tree.path("hooks").properties()) {
            String label = label(event.getKey());
            int groupIndex = 0;
            for (JsonNode group : event.getValue()) {
                int handlerIndex = 0;
                for (JsonNode handler : group.path("hooks")) {
                    if (HookCommand.isBatons(handler.get("command"))) {
                        String key = hooksFile.toAbsolutePath().normalize() + ":" + label + ":" + groupIndex + ":" + handlerIndex;
                        entries.put(key, hash(label, group.path("matcher").textValue(), handler));
                    }
                    handlerIndex++;
                }
                groupIndex++;
            }
        }
        return entries;
    }

    /** {@code PreToolUse} → {@code pre_tool_use}, the event's label in trust keys and hashes. */
    public static String label(String event) {
        return event.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }

    public static String hash(String label, String matcher, JsonNode handler) {
        Map<String, Object> normalized = new TreeMap<>();
        normalized.put("type", "command");
        normalized.put("command", handler.path("command").asText());
        int timeout = handler.path("timeout").canConvertToInt() ? handler.path("timeout").intValue() : CODEX_DEFAULT_TIMEOUT;
        normalized.put("timeout", Math.max(1, timeout));
        normalized.put("async", handler.path("async").asBoolean(false));
        if (handler.hasNonNull("statusMessage")) {
            normalized.put("statusMessage", handler.get("statusMessage").asText());
        }
        Map<String, Object> identity = new TreeMap<>();
        identity.put("event_name", label);
        if (matcher != null) {
            identity.put("matcher", matcher);
        }
        identity.put("hooks", java.util.List.of(normalized));
        try {
            byte[] json = SORTED.writeValueAsString(identity).getBytes(StandardCharsets.UTF_8);
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot hash a hook identity", e);
        }
    }
}
