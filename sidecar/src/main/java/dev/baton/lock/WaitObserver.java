package dev.baton.lock;

import dev.baton.state.Transaction;
import java.util.List;
import java.util.Optional;

/**
 * Told, inside the ledger's transaction, when an acquire starts waiting for files another session
 * holds and when it stops, so the wait-for graph follows waits exactly (no window between them).
 */
public interface WaitObserver {

    WaitObserver NONE = new WaitObserver() {
        @Override
        public void waitStarted(Transaction tx, String sessionId, List<String> files) {
        }

        @Override
        public void waitEnded(Transaction tx, String sessionId, List<String> files) {
        }
    };

    void waitStarted(Transaction tx, String sessionId, List<String> files);

    /** The acquire returned (progress, time up, interrupted, or failed); files are those it waited for. */
    void waitEnded(Transaction tx, String sessionId, List<String> files);

    /**
     * The open deadlock the waiting session is in, as a sentence naming the cycle; read outside any transaction.
     * A waiter in a cycle waits in vain, so its acquire returns with this at once.
     */
    default Optional<String> deadlockOf(String sessionId) {
        return Optional.empty();
    }
}
