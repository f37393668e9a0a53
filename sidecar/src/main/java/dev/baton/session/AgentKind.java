package dev.baton.session;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The kind of program a session belongs to; the wire name is what the API and the audit log use. */
public enum AgentKind {
    CLAUDE_CODE("claude-code"),
    COPILOT_CLI("copilot-cli"),
    CODEX("codex"),
    GEMINI("gemini"),
    OPENCODE("opencode"),
    CLI("cli"),
    API("api");

    private final String wireName;

    AgentKind(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** True for the coding agents; the CLI and API clients are people's and scripts' own sessions. */
    public boolean isAgent() {
        return this != CLI && this != API;
    }

    public static Optional<AgentKind> fromWireName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(kind -> kind.wireName.equals(wanted)).findFirst();
    }

    public static String allWireNames() {
        return String.join(", ", Arrays.stream(values()).map(AgentKind::wireName).toList());
    }
}
