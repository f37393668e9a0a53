package dev.baton.hook;

/** What Baton answers an agent's hook, before it is put into the agent's own output format. */
sealed interface HookReply permits HookReply.Silent, HookReply.Deny, HookReply.Context {

    /** Nothing to say: the hook prints nothing and exits 0 (never an explicit allow, which would skip the user's prompt). */
    record Silent() implements HookReply {
    }

    /** The tool call must not run; {@code reason} tells the agent who holds what and what to do next. */
    record Deny(String reason) implements HookReply {
    }

    /** The call goes ahead and the agent is told {@code text} (additionalContext). */
    record Context(String text) implements HookReply {
    }

    HookReply SILENT = new Silent();

    /** Context when there is something to say, else silence. */
    static HookReply context(String text) {
        return text == null || text.isBlank() ? SILENT : new Context(text);
    }
}
