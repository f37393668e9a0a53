package dev.baton.hook;

/** What Baton answers an agent's hook, before it is put into the agent's own output format. */
sealed interface HookReply permits HookReply.Silent, HookReply.Deny, HookReply.Context, HookReply.Rewrite {

    /** Nothing to say: the hook prints nothing and exits 0 (never an explicit allow, which would skip the user's prompt). */
    record Silent() implements HookReply {
    }

    /** The tool call must not run; {@code reason} tells the agent who holds what and what to do next. */
    record Deny(String reason) implements HookReply {
    }

    /** The call goes ahead and the agent is told {@code text} (additionalContext). */
    record Context(String text) implements HookReply {
    }

    /**
     * The tool call goes ahead with other arguments ({@code arguments}, the agent's whole argument object), and the
     * agent is told {@code context} where it has something to say. Never with an explicit allow: the user's own
     * permission rules and prompt still decide, about the call as rewritten.
     */
    record Rewrite(com.fasterxml.jackson.databind.node.ObjectNode arguments, String context) implements HookReply {
    }

    HookReply SILENT = new Silent();

    /** Context when there is something to say, else silence. */
    static HookReply context(String text) {
        return text == null || text.isBlank() ? SILENT : new Context(text);
    }
}
