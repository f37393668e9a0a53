package dev.baton;

import dev.baton.liveness.HolderLiveness;
import dev.baton.liveness.ProcessLiveness;
import dev.baton.lock.LeftOverWork;
import dev.baton.lock.LockRows;
import dev.baton.git.WorkTreeCopies;
import dev.baton.lock.BranchRule;
import dev.baton.lock.LockTable;
import dev.baton.lock.RepositoryCopies;
import dev.baton.lock.SharedLockSpace;
import dev.baton.lock.NamedLockTable;
import dev.baton.message.MessageRows;
import dev.baton.message.Messages;
import dev.baton.negotiation.HandOverNotices;
import dev.baton.negotiation.NegotiationResolver;
import dev.baton.negotiation.NegotiationRows;
import dev.baton.negotiation.Negotiations;
import dev.baton.negotiation.NoticeSource;
import dev.baton.negotiation.SessionNotices;
import dev.baton.plan.Plans;
import dev.baton.session.AgentIdentity;
import dev.baton.session.SessionRegistry;
import dev.baton.session.SessionRows;
import dev.baton.state.Ledger;
import dev.baton.state.RowKind;
import dev.baton.state.Store;
import dev.baton.version.VersionRows;
import dev.baton.version.VersionStore;
import dev.baton.version.Versions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/** The domain of one sidecar, wired: the ledger and the tables that change it. Adapters take this. */
public final class Baton implements AutoCloseable {

    /** Every kind of row the domain keeps; the ledger loads them at start. */
    private static final List<RowKind<?, ?>> ROW_KINDS = Stream.of(SessionRows.KINDS, LockRows.KINDS,
            NegotiationRows.KINDS, MessageRows.KINDS, VersionRows.KINDS).flatMap(List::stream).toList();

    private final SharedLockSpace shared;
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
    private final Versions versions;
    private final LeftOverWork leftOverWork = new LeftOverWork();
    private final List<AutoCloseable> resources = new CopyOnWriteArrayList<>();

    public Baton(Store store, Clock clock, ProcessLiveness processes, Duration heartbeatTtl) {
        this(store, clock, processes, heartbeatTtl, SharedLockSpace.LOCAL);
    }

    /** @param shared the lock space shared with other machines of a team; {@link SharedLockSpace#LOCAL} without one */
    public Baton(Store store, Clock clock, ProcessLiveness processes, Duration heartbeatTtl, SharedLockSpace shared) {
        this(store, clock, processes, heartbeatTtl, shared, VersionStore.NONE);
    }

    /** @param versionStore where the versions of held files are kept ({@link VersionStore#NONE}: nowhere) */
    public Baton(Store store, Clock clock, ProcessLiveness processes, Duration heartbeatTtl, SharedLockSpace shared,
                 VersionStore versionStore) {
        this(store, clock, processes, heartbeatTtl, shared, versionStore, new WorkTreeCopies(BranchRule.TELL));
    }

    /** @param copies how a file is named among the worktrees and clones of its repository on this machine */
    public Baton(Store store, Clock clock, ProcessLiveness processes, Duration heartbeatTtl, SharedLockSpace shared,
                 VersionStore versionStore, RepositoryCopies copies) {
        this.shared = shared;
        this.ledger = new Ledger(store, clock, ROW_KINDS);
        this.liveness = new HolderLiveness(processes, heartbeatTtl);
        this.sessions = new SessionRegistry(ledger);
        this.locks = new LockTable(ledger, liveness, shared, copies);
        this.namedLocks = new NamedLockTable(ledger, liveness);
        this.identity = new AgentIdentity(sessions);
        this.negotiations = new Negotiations(ledger, locks);
        this.messages = new Messages(ledger);
        this.plans = new Plans(ledger);
        this.versions = new Versions(ledger, versionStore);
        HandOverNotices handOvers = new HandOverNotices();
        NoticeSource sessionNotices = new SessionNotices(ledger, messages, handOvers);
        this.notices = sessionId -> {
            List<String> shown = new ArrayList<>(shared.takeNotices(sessionId));
            shown.addAll(sessionNotices.takeNotices(sessionId));
            shown.addAll(versions.takeNotices(sessionId));
            shown.addAll(locks.copyNotices().take(sessionId));
            return shown;
        };
        // Interceptors run in registration order; negotiation resolution comes first so that later
        // ones (the event log) see the resolutions it adds.
        ledger.addInterceptor(new NegotiationResolver(negotiations));
        ledger.addInterceptor(handOvers);
        ledger.addInterceptor(leftOverWork);
    }

    /** The lock space shared with other machines ({@link SharedLockSpace#LOCAL} without a team). */
    public SharedLockSpace sharedLockSpace() {
        return shared;
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

    /** The versions of held files kept for their holders to put back. */
    public Versions versions() {
        return versions;
    }

    /** Files a holder that went away left changed, for the session that takes them next. */
    public LeftOverWork leftOverWork() {
        return leftOverWork;
    }

    /** Requests, answers and messages for a session's next hook call. */
    public NoticeSource notices() {
        return notices;
    }


    /** The sweeper's coordination work: record negotiation timeouts, prune what nobody can read any more. */
    public void sweepCoordination() {
        negotiations.sweep();
        messages.sweep();
    }

    /** A resource an adapter made for this domain (a watch, a thread), closed with it. */
    public void closeWith(AutoCloseable resource) {
        resources.add(resource);
    }

    @Override
    public void close() {
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                LoggerFactory.getLogger(Baton.class).warn("closing {}: {}", resource, e.toString());
            }
        }
        ledger.close();
    }
}
