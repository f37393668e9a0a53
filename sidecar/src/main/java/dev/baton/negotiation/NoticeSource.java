package dev.baton.negotiation;

import java.util.List;

/**
 * Lines a session should read on its next hook call (as {@code additionalContext}): each item is
 * returned once, and taking it records that it was shown.
 */
@FunctionalInterface
public interface NoticeSource {

    List<String> takeNotices(String sessionId);
}
