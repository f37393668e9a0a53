package dev.baton.installer.layout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The coding agents whose configuration Baton can wire up, with the command each one's CLI is started by. */
public enum Agent {
    CLAUDE("Claude Code", "claude"),
    COPILOT("Copilot CLI", "copilot"),
    CODEX("Codex CLI", "codex"),
    GEMINI("Gemini CLI", "gemini"),
    OPENCODE("OpenCode", "opencode");

    private final String displayName;
    private final String command;

    Agent(String displayName, String command) {
        this.displayName = displayName;
        this.command = command;
    }

    public String displayName() {
        return displayName;
    }

    /** The CLI's command name, which is also the agent's option ({@code --claude}) and its hook dialect. */
    public String command() {
        return command;
    }

    public String option() {
        return "--" + name().toLowerCase(Locale.ROOT);
    }

    /** Whether this machine uses the agent: its CLI is on PATH or its configuration directory exists. */
    public boolean isUsedOn(InstallLayout layout) {
        if (Files.isDirectory(layout.configDir(this))) {
            return true;
        }
        for (Path entry : layout.searchPath()) {
            if (Files.isExecutable(entry.resolve(command))) {
                return true;
            }
        }
        return false;
    }
}
