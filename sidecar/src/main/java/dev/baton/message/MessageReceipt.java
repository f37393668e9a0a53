package dev.baton.message;

import java.time.Instant;

/**
 * What one recipient has done with one message. Delivery (shown once on a hook call) is not
 * reading: a message stays unread until the recipient marks it read.
 */
public record MessageReceipt(long messageId, String sessionId, Instant deliveredAt, Instant readAt) {

    public static MessageReceipt none(long messageId, String sessionId) {
        return new MessageReceipt(messageId, sessionId, null, null);
    }

    public MessageReceipt delivered(Instant at) {
        return new MessageReceipt(messageId, sessionId, deliveredAt == null ? at : deliveredAt, readAt);
    }

    public MessageReceipt read(Instant at) {
        return new MessageReceipt(messageId, sessionId, deliveredAt == null ? at : deliveredAt, readAt == null ? at : readAt);
    }

    public boolean isRead() {
        return readAt != null;
    }
}
