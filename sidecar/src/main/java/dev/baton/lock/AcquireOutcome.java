package dev.baton.lock;

import java.util.List;

/** Per-file results of one acquire, in sorted canonical order. */
public record AcquireOutcome(List<LockResult> results, boolean allAcquired) {

    public List<LockResult> blocked() {
        return results.stream().filter(r -> !r.acquired()).toList();
    }
}
