package dev.baton.lock;

import java.util.List;

/** What a release freed and what the caller asked to release but did not hold (not an error). */
public record ReleaseOutcome(List<String> released, List<String> notHeld) {
}
