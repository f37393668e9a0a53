package dev.baton.lock;

import java.util.List;

/** A stale holder whose locks were freed, and why. */
public record FreedHolder(String session, String reason, List<String> files) {
}
