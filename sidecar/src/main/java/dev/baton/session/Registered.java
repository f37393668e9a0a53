package dev.baton.session;

/** A registered session; {@code key} is the session's secret, present only when it was just created. */
public record Registered(Session session, String key, boolean created) {
}
