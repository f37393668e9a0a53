package dev.baton.hook;

/** What a hook event means to Baton, whatever each agent calls it (each dialect's {@link EventNames}). */
public enum EventKind {
    SESSION_START, PRE_TOOL, POST_TOOL, TOOL_FAILED, STOP, SUBAGENT_STOP, SESSION_END, OTHER
}
