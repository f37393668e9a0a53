package dev.baton;

import dev.baton.liveness.HolderLiveness;
import dev.baton.liveness.ProcessLiveness;
import dev.baton.lock.LockTable;
import dev.baton.lock.NamedLockTable;
import dev.baton.message.Messages;
import dev.baton.negotiation.NegotiationResolver;
import dev.baton.negotiation.Negotiations;
import dev.baton.negotiation.NoticeSource;
import dev.baton.negotiation.SessionNotices;
import dev.baton.plan.Plans;
import dev.baton.session.AgentIdentity;
import dev.baton.session.SessionRegistry;
import dev.baton.session.SupervisorNotes;
import dev.baton.state.Ledger;
import dev.baton.state.Store;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The domain of one sidecar, wired: the ledger and the tables that change it. Adapters take this. */
public final class Baton implements AutoCloseable {

    private final Ledger ledger;
    private final HolderLiveness liveness;
    private final SessionRegistry sessions;
    private final LockTable locks;
    private final NamedLockTable namedLocks;
    private final AgentIdentity identity;
    private final Negotiations negotiations;
    private final Messages messages;
    private final Plans plans;
    private final NoticeSource notices;
    private final SupervisorNotes supervisorNotes = new SupervisorNotes();

    public Baton(Store store, Clock clock, ProcessLiveness processes, Duration heartbeatTtl) {
        this.ledger = new Ledger(store, clock);
        this.liveness = new HolderLiveness(processes, heartbeatTtl);
        this.sessions = new SessionRegistry(ledger);
        this.locks = new LockTable(ledger, liveness);
        this.namedLocks = new NamedLockTable(ledger, liveness);
        this.identity = new AgentIdentity(sessions);
        this.negotiations = new Negotiations(ledger, locks);
        this.messages = new Messages(ledger);
        this.plans = new Plans(ledger);
        SessionNotices coordination = new SessionNotices(ledger, messages);
        this.notices = sessionId -> {
            List<String> lines = new ArrayList<>(coordination.takeNotices(sessionId));
            lines.addAll(supervisorNotes.take(sessionId));
            return lines;
        };
        // Interceptors run in registration order; negotiation resolution comes first so that later
        // ones (the event log) see the resolutions it adds.
        ledger.addInterceptor(new NegotiationResolver());
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

    public AgentIdentity identity() {
        return identity;
    }

    public Negotiations negotiations() {
        return negotiations;
    }

    public Messages messages() {
        return messages;
    }

    public Plans plans() {
        return plans;
    }

    /** Requests, answers and messages for a session's next hook call. */
    public NoticeSource notices() {
        return notices;
    }

    /** What the supervisor did to a session, told on its next hook call (part of {@link #notices()}). */
    public SupervisorNotes supervisorNotes() {
        return supervisorNotes;
    }

    /** The sweeper's coordination work: record negotiation timeouts, prune what nobody can read any more. */
    public void sweepCoordination() {
        negotiations.sweep();
        messages.sweep();
    }

    @Override
    public void close() {
        ledger.close();
    }
}
