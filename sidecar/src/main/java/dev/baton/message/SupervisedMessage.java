package dev.baton.message;

import java.time.Instant;

/**
 * One message as the supervisor sees it: who sent it to whom ({@code *} for everyone), and whether its recipient has
 * read it ({@code null} for a broadcast, which each session reads on its own).
 */
public record SupervisedMessage(long id, String from, String to, String text, Instant sentAt, Boolean read) {
}
