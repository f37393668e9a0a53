package dev.baton.installer.agents;

import dev.baton.installer.layout.Agent;
import java.util.List;

/**
 * The events Baton registers its hook for, per agent, as each CLI names them (checked against Claude Code 2.1,
 * Copilot CLI 1.0, Codex CLI 0.169 and Gemini CLI 0.61). Tool events are limited to the edit and shell tools.
 *
 * @param dialect the agent word the hook command passes on ({@code baton-hook DIALECT EVENT})
 * @param events  the events, in the order they are written
 */
public record HookEvents(String dialect, List<EventHook> events) {

    /**
     * One event; {@code matcher} is null for events that are not about a tool; the timeout is in the CLI's unit.
     * {@code blocksOnFailure}: the CLI is told to block the tool call when the hook cannot start, times out or exits
     * with a code the hook protocol does not know (Claude Code's {@code onFailure: "block"}, 2.1.295 and later).
     */
    public record EventHook(String event, String matcher, int timeout, boolean blocksOnFailure) {

        EventHook(String event, String matcher, int timeout) {
            this(event, matcher, timeout, false);
        }
    }

    public static final String CLAUDE_TOOLS = "Edit|Write|MultiEdit|NotebookEdit|Bash|PowerShell";
    public static final String COPILOT_TOOLS = "edit|create|str_replace_editor|apply_patch|write|bash|shell";
    public static final String CODEX_TOOLS = "apply_patch|Edit|Write|Bash|exec_command|shell|local_shell";
    public static final String GEMINI_TOOLS = "write_file|replace|run_shell_command";

    /**
     * Claude Code: timeouts in seconds. PermissionDenied and PostToolUseFailure end an edit that never happened. The
     * PreToolUse hook, which guards the edit and shell tools, blocks the call whenever it fails: without that, Claude
     * Code runs the tool after a hook that could not start or timed out. The other CLIs have no such setting (Copilot
     * CLI 1.0 denies a tool whose preToolUse hook errors on its own; Codex CLI 0.171 and Gemini CLI 0.61 run it), so
     * for them the script's own bound is what makes an edit fail closed.
     */
    public static final HookEvents CLAUDE = new HookEvents("claude", List.of(
            new EventHook("PreToolUse", CLAUDE_TOOLS, 30, true),
            new EventHook("PostToolUse", CLAUDE_TOOLS, 30),
            new EventHook("PostToolUseFailure", CLAUDE_TOOLS, 30),
            new EventHook("PermissionDenied", CLAUDE_TOOLS, 30),
            new EventHook("Stop", null, 30),
            new EventHook("SubagentStop", null, 30),
            new EventHook("SessionStart", null, 30),
            new EventHook("SessionEnd", null, 30)));

    /** Copilot CLI: timeouts in seconds ({@code timeoutSec}). */
    public static final HookEvents COPILOT = new HookEvents("copilot", List.of(
            new EventHook("preToolUse", COPILOT_TOOLS, 30),
            new EventHook("postToolUse", COPILOT_TOOLS, 30),
            new EventHook("postToolUseFailure", COPILOT_TOOLS, 30),
            new EventHook("errorOccurred", null, 30),
            new EventHook("agentStop", null, 30),
            new EventHook("subagentStop", null, 30),
            new EventHook("sessionStart", null, 30),
            new EventHook("sessionEnd", null, 30)));

    /**
     * Codex CLI: timeouts in seconds; Codex clamps a SessionEnd hook to 3 s. Codex 0.169 has no failure or
     * permission-denied event (it ignores those names), so Stop ends whatever edit did not complete.
     */
    public static final HookEvents CODEX = new HookEvents("codex", List.of(
            new EventHook("PreToolUse", CODEX_TOOLS, 30),
            new EventHook("PostToolUse", CODEX_TOOLS, 30),
            new EventHook("Stop", null, 30),
            new EventHook("SessionStart", null, 30),
            new EventHook("SessionEnd", null, 3)));

    /** Gemini CLI: timeouts in milliseconds. */
    public static final HookEvents GEMINI = new HookEvents("gemini", List.of(
            new EventHook("BeforeTool", GEMINI_TOOLS, 30_000),
            new EventHook("AfterTool", GEMINI_TOOLS, 30_000),
            new EventHook("AfterAgent", null, 30_000),
            new EventHook("SessionStart", null, 30_000),
            new EventHook("SessionEnd", null, 30_000)));

    public static HookEvents of(Agent agent) {
        return switch (agent) {
            case CLAUDE -> CLAUDE;
            case COPILOT -> COPILOT;
            case CODEX -> CODEX;
            case GEMINI -> GEMINI;
            case OPENCODE -> throw new IllegalArgumentException("OpenCode runs Baton's plug-in, no hook commands");
        };
    }
}
