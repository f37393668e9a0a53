package dev.baton;

import dev.baton.liveness.HolderLiveness;
import dev.baton.liveness.ProcessLiveness;
import dev.baton.lock.LockTable;
import dev.baton.lock.NamedLockTable;
import dev.baton.session.SessionRegistry;
import dev.baton.state.Ledger;
import dev.baton.state.Store;
import java.time.Clock;
import java.time.Duration;

/** The domain of one sidecar, wired: the ledger and the tables that change it. Adapters take this. */
public final class Baton implements AutoCloseable {

    private final Ledger ledger;
    private final HolderLiveness liveness;
    private final SessionRegistry sessions;
    private final LockTable locks;
    private final NamedLockTable namedLocks;

    public Baton(Store store, Clock clock, ProcessLiveness processes, Duration heartbeatTtl) {
        this.ledger = new Ledger(store, clock);
        this.liveness = new HolderLiveness(processes, heartbeatTtl);
        this.sessions = new SessionRegistry(ledger);
        this.locks = new LockTable(ledger, liveness);
        this.namedLocks = new NamedLockTable(ledger, liveness);
    }

    public Ledger ledger() {
        return ledger;
    }

    public Clock clock() {
        return ledger.clock();
    }

    public HolderLiveness liveness() {
        return liveness;
    }

    public SessionRegistry sessions() {
        return sessions;
    }

    public LockTable locks() {
        return locks;
    }

    public NamedLockTable namedLocks() {
        return namedLocks;
    }

    @Override
    public void close() {
        ledger.close();
    }
}
