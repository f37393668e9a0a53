package dev.baton.shell;

import java.nio.file.Path;

/**
 * A shell command an agent announced (PreToolUse).
 *
 * @param toolUseId the agent's id of this tool call, matched at PostToolUse and by the wrapper; null when none
 * @param text the command line as the agent will run it
 * @param cwd the directory it runs in (absolute), or null when unknown
 * @param background whether the agent runs it in the background: its PostToolUse comes when it starts, not when
 *                   it ends (Claude Code {@code run_in_background}, Copilot CLI {@code mode: "async"}, Gemini CLI
 *                   {@code is_background})
 * @param opaque whether its text cannot be read at all (PowerShell): nothing is known before it ran
 */
public record ShellCommand(String sessionId, String toolUseId, String text, Path cwd, boolean background, boolean opaque) {
}
