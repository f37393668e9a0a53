package dev.baton.installer;

/** The coding agents whose configuration Baton can wire up. */
public enum Agent {
    CLAUDE("Claude Code"),
    COPILOT("Copilot CLI");

    private final String displayName;

    Agent(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }
}
