package dev.baton.installer.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * What an agent's own parser accepts in its JSON configuration, so Baton reads and keeps exactly that: a file the
 * agent loads is edited in place, comments and all, and a file the agent would refuse is refused with the reason.
 * Checked against each agent's CLI: Claude Code reads its settings, {@code ~/.claude.json} and {@code .mcp.json}
 * with {@code JSON.parse} ("Invalid or malformed JSON" for a comment or a trailing comma); Gemini CLI strips
 * {@code //} and {@code /* *}{@code /} comments (strip-json-comments) before {@code JSON.parse}, so a trailing comma
 * still fails; Copilot CLI reads {@code mcp-config.json} with both, OpenCode its {@code opencode.json} (jsonc-parser with
 * allowTrailingComma); Codex reads {@code hooks.json} with serde_json. Each agent names its own.
 */
public enum JsonSyntax {
    PLAIN(false, false, "plain JSON, without comments or trailing commas"),
    COMMENTS(true, false, "JSON with // and /* */ comments but without trailing commas"),
    COMMENTS_AND_TRAILING_COMMAS(true, true, "JSON with comments and trailing commas");

    private final ObjectMapper mapper;
    private final String description;

    JsonSyntax(boolean comments, boolean trailingCommas, String description) {
        JsonFactory factory = JsonFactory.builder()
                .configure(JsonReadFeature.ALLOW_JAVA_COMMENTS, comments)
                .configure(JsonReadFeature.ALLOW_TRAILING_COMMA, trailingCommas)
                .build();
        this.mapper = JsonMapper.builder(factory)
                // Keep decimals such as 1.50 as written instead of turning them into doubles.
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
        this.description = description;
    }

    /** The mapper that parses this syntax; its factory's parsers too (for the offsets of a textual edit). */
    public ObjectMapper mapper() {
        return mapper;
    }

    /** As said to a user: "Claude Code reads it as " + this. */
    public String description() {
        return description;
    }
}
