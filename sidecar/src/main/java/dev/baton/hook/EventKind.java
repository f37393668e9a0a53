package dev.baton.hook;

import java.util.Locale;

/** What a hook event means to Baton, whatever each agent calls it. */
public enum EventKind {
    SESSION_START, PRE_TOOL, POST_TOOL, TOOL_FAILED, STOP, SUBAGENT_STOP, SESSION_END, OTHER;

    /**
     * Claude Code and Codex send PascalCase names, Copilot CLI's native hooks are registered under camelCase
     * config keys, Gemini CLI has its own (BeforeTool, AfterTool, AfterAgent); all of them map here.
     */
    public static EventKind fromName(String name) {
        if (name == null) {
            return OTHER;
        }
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "sessionstart" -> SESSION_START;
            case "pretooluse", "beforetool" -> PRE_TOOL;
            case "posttooluse", "aftertool" -> POST_TOOL;
            case "posttoolusefailure", "permissiondenied", "erroroccurred" -> TOOL_FAILED;
            case "stop", "agentstop", "afteragent" -> STOP;
            case "subagentstop" -> SUBAGENT_STOP;
            case "sessionend" -> SESSION_END;
            default -> OTHER;
        };
    }
}
