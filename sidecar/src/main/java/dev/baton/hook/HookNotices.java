package dev.baton.hook;

import java.util.List;

/**
 * Lines a session's agent should read on its next hook call (negotiation requests for files it holds,
 * messages, deadlock advice), shown as additionalContext or, when the edit is denied, after the reason.
 * The hook service asks only when the reply can carry them, so a line handed out is a line shown.
 */
@FunctionalInterface
public interface HookNotices {

    HookNotices NONE = sessionId -> List.of();

    /** The lines to show now for {@code sessionId}; returning a line counts as delivering it. */
    List<String> take(String sessionId);
}
