package dev.baton.events;

import dev.baton.Baton;
import dev.baton.deadlock.Deadlocks;
import dev.baton.http.Views;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.lock.NamedLock;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.Change;
import dev.baton.state.EventRecord;
import dev.baton.state.Ledger;
import dev.baton.state.Store;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The change stream. One sequencer: every event, durable or not, gets its number inside the ledger
 * transaction that causes it and is stored in that transaction, so the numbers follow commit order
 * and a reconnect with {@code since} replays exactly what was sent. A client connects to a snapshot
 * and the number it covers, taken together under the ledger, then receives every later event.
 */
public final class EventStream {

    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);
    /** Quiet connections are pinged this often, well within the WebSocket idle timeout. */
    private static final long KEEP_ALIVE_SECONDS = 30;

    private final Baton baton;
    private final Ledger ledger;
    private final Store store;
    private final EventSettings settings;
    private final ChangeEvents changeEvents;
    private final Map<String, Function<World, Object>> sections = new LinkedHashMap<>();
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private final ScheduledThreadPoolExecutor senders;
    /** The last number given out; read and written under the ledger monitor only. */
    private long lastSeq;

    private EventStream(Baton baton, Deadlocks deadlocks, EventSettings settings) {
        this.baton = baton;
        this.ledger = baton.ledger();
        this.store = ledger.store();
        this.settings = settings;
        this.changeEvents = ledger.read(world -> new ChangeEvents(baton, world));
        this.lastSeq = ledger.read(world -> store.newestEventSeq());
        this.senders = new ScheduledThreadPoolExecutor(2, runnable -> {
            Thread thread = new Thread(runnable, "baton-events");
            thread.setDaemon(true);
            return thread;
        });
        sections.put("sessions", this::sessions);
        sections.put("locks", this::locks);
        sections.put("named_locks", this::namedLocks);
        sections.put("waits", deadlocks::waits);
        sections.put("negotiations", world -> List.of());
        sections.put("deadlocks", deadlocks::deadlocks);
    }

    /** Creates the stream and hooks it into the ledger: it records every transaction's events. */
    public static EventStream install(Baton baton, Deadlocks deadlocks, EventSettings settings) {
        EventStream stream = new EventStream(baton, deadlocks, settings);
        baton.ledger().addRecorder(stream::record);
        baton.ledger().addListener(stream::publish);
        baton.ledger().addCloseHook(stream::close);
        stream.senders.scheduleWithFixedDelay(stream::keepAlive, KEEP_ALIVE_SECONDS, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
        return stream;
    }

    /**
     * Supplies (or replaces) one part of the snapshot, e.g. {@code negotiations}; called under the
     * ledger, so it sees the same state as the rest of the snapshot. Install it before clients connect.
     */
    public void snapshotSection(String name, Function<World, Object> section) {
        ledger.read(world -> sections.put(name, section));
    }

    /**
     * Connects a client: a snapshot when {@code since} is null or no longer replayable, else the stored
     * events after it; then every new event. The starting point and the registration for new events
     * are taken under the ledger together, so nothing is missed or sent twice at the switch-over.
     */
    public Subscriber connect(FrameSink sink, Long since) {
        return ledger.read(world -> {
            Subscriber subscriber = new Subscriber(sink, settings.clientQueue(), senders, this::storedAfter,
                    subscribers::remove);
            subscribers.add(subscriber);
            if (since != null && since <= lastSeq && since >= Math.max(0, store.oldestEventSeq() - 1)) {
                subscriber.startAfter(since, lastSeq);
            } else {
                subscriber.startWithSnapshot(Frames.snapshot(lastSeq, snapshot(world)), lastSeq);
            }
            return subscriber;
        });
    }

    /** The number of the last event recorded. */
    public long lastSeq() {
        return ledger.read(world -> lastSeq);
    }

    public int clients() {
        return subscribers.size();
    }

    private Map<String, Object> snapshot(World world) {
        Map<String, Object> snapshot = new LinkedHashMap<>();
        sections.forEach((name, section) -> snapshot.put(name, section.apply(world)));
        return snapshot;
    }

    private List<EventRecord> storedAfter(long seq, int limit) {
        return ledger.read(world -> store.eventsAfter(seq, limit));
    }

    /** Runs last inside every transaction: numbers its events and adds them to what commits. */
    private void record(Transaction tx, List<Change> changes) {
        List<ChangeEvents.Draft> drafts = changeEvents.of(tx, changes);
        if (drafts.isEmpty()) {
            return;
        }
        long before = lastSeq;
        long seq = before;
        for (ChangeEvents.Draft draft : drafts) {
            seq++;
            tx.record(new Change.EventRecorded(new EventRecord(seq, tx.now(), draft.kind(), Frames.json(draft.data()))));
        }
        int batch = settings.pruneBatch();
        if (seq > settings.retention() && seq / batch > before / batch) {
            tx.record(new Change.EventsPruned(seq - settings.retention()));
        }
        lastSeq = seq;
        tx.onRollback(() -> lastSeq = before);
    }

    /** After each commit, under the ledger: hands the new events to every client's queue, never waiting on one. */
    private void publish(List<Change> changes) {
        for (Change change : changes) {
            if (change instanceof Change.EventRecorded recorded) {
                EventRecord event = recorded.event();
                String frame = Frames.event(event);
                for (Subscriber subscriber : subscribers) {
                    try {
                        subscriber.offer(event.seq(), frame);
                    } catch (RuntimeException e) {
                        LOG.warn("dropping an event stream client: {}", e.toString());
                        subscriber.cancel();
                    }
                }
            }
        }
    }

    private void keepAlive() {
        subscribers.forEach(Subscriber::keepAlive);
    }

    private void close() {
        senders.shutdownNow();
    }

    private List<Views.SessionView> sessions(World world) {
        return world.rows(SessionRows.SESSIONS).stream()
                .sorted(Comparator.comparing(Session::startedAt).thenComparing(Session::id))
                .map(session -> Views.session(baton, world, session))
                .toList();
    }

    private List<Views.LockView> locks(World world) {
        return world.rows(LockRows.FILES).stream()
                .sorted(Comparator.comparing(FileLock::file))
                .map(lock -> Views.lock(baton, world, lock))
                .toList();
    }

    private List<Views.NamedLockView> namedLocks(World world) {
        return world.rows(LockRows.NAMED).stream()
                .sorted(Comparator.comparing(NamedLock::name))
                .map(lock -> Views.named(baton, lock))
                .toList();
    }
}
