package dev.baton.message;

import java.time.Instant;

/** One message as its recipient sees it, with who sent it and whether it was read. */
public record InboxEntry(
        long id,
        String from,
        String fromAgent,
        String fromName,
        boolean broadcast,
        String text,
        Instant sentAt,
        Instant deliveredAt,
        Instant readAt) {

    public boolean unread() {
        return readAt == null;
    }
}
