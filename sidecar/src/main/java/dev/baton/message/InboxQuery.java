package dev.baton.message;

import dev.baton.state.BatonException;
import java.time.Instant;

/**
 * Which part of an inbox to show: only unread, only from senders whose id starts with {@code from},
 * only sent at or after {@code since}; newest first, {@code page} counted from 1.
 */
public record InboxQuery(boolean unreadOnly, String from, Instant since, int page, int pageSize) {

    public static final int DEFAULT_PAGE_SIZE = 20;
    public static final int MAX_PAGE_SIZE = 200;

    public InboxQuery {
        if (page < 1) {
            throw BatonException.invalid("page counts from 1, was " + page);
        }
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw BatonException.invalid("page_size must be between 1 and " + MAX_PAGE_SIZE + ", was " + pageSize);
        }
        if (from != null && from.isBlank()) {
            from = null;
        }
    }

    public static InboxQuery firstPage() {
        return new InboxQuery(false, null, null, 1, DEFAULT_PAGE_SIZE);
    }
}
