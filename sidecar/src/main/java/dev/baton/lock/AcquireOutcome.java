package dev.baton.lock;

import java.util.List;

/**
 * Per-file results of one acquire, in sorted canonical order.
 *
 * @param deadlock when a waiting acquire returned because its wait closed a deadlock (or joined one), the
 *                 sentence naming the cycle; null otherwise
 */
public record AcquireOutcome(List<LockResult> results, boolean allAcquired, String deadlock) {

    public AcquireOutcome(List<LockResult> results, boolean allAcquired) {
        this(results, allAcquired, null);
    }

    public List<LockResult> blocked() {
        return results.stream().filter(r -> !r.acquired()).toList();
    }
}
