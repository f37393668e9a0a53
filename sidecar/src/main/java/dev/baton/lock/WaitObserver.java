package dev.baton.lock;

import dev.baton.state.Transaction;
import java.util.List;

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
}
