package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.connection.ConnectionState;
import dev.baton.dashboard.connection.ConnectionStatus;
import dev.baton.dashboard.graph.WaitGraph;
import dev.baton.dashboard.model.ActivityEntry;
import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.model.SharedFiles;
import dev.baton.dashboard.model.Topic;
import dev.baton.dashboard.protocol.Frame;
import dev.baton.dashboard.protocol.MessageInfo;
import dev.baton.dashboard.protocol.ProtocolException;
import dev.baton.dashboard.protocol.TeamReply;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Everything the window shows, as observable rows and properties, fed with batches of frames on the
 * FX thread. The clock is injected: relative times and countdowns move when {@link #tick()} reads it, and stand
 * still while the event stream is down, since the rows may no longer be true.
 */
public final class DashboardModel {

    /** The activity log keeps this many entries; older ones scroll away. */
    public static final int ACTIVITY_LIMIT = 5_000;

    private final Board board = new Board();
    private final Clock clock;
    private final ObjectProperty<Instant> now;
    private final ObjectProperty<ConnectionStatus> connection =
            new SimpleObjectProperty<>(new ConnectionStatus(ConnectionState.CONNECTING, "starting"));
    private final ObjectProperty<Instant> offlineSince = new SimpleObjectProperty<>();
    private final BooleanProperty offline = new SimpleBooleanProperty();
    private final StringProperty since = new SimpleStringProperty("");
    private final DateTimeFormatter wallClock;
    private final BooleanProperty loaded = new SimpleBooleanProperty();
    private final LongProperty seq = new SimpleLongProperty(-1);
    private final ObjectProperty<WaitGraph> graph = new SimpleObjectProperty<>(WaitGraph.empty());
    private final KeyedRows<String, SessionRow> sessions = new KeyedRows<>(SessionRow::id);
    private final KeyedRows<String, LockRow> locks = new KeyedRows<>(LockRow::file);
    private final KeyedRows<String, NegotiationRow> negotiations = new KeyedRows<>(NegotiationRow::id);
    private final KeyedRows<String, MessageRow> messages = new KeyedRows<>(MessageRow::id);
    private final ObservableList<ActivityEntry> activity = FXCollections.observableArrayList();
    private final TeamModel team;
    private Runnable messagesChanged = () -> { };

    public DashboardModel(Clock clock) {
        this.clock = clock;
        this.now = new SimpleObjectProperty<>(clock.instant());
        this.team = new TeamModel(clock.getZone());
        this.wallClock = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(clock.getZone());
    }

    /** Applies frames in order and refreshes the rows of whatever they changed. FX thread only. */
    public void apply(List<Frame> frames) {
        boolean messagesMentioned = false;
        for (Frame frame : frames) {
            try {
                board.apply(frame);
            } catch (ProtocolException e) {
                activity.add(new ActivityEntry(seq.get(), clock.instant(), "error", "ignored an unreadable event: " + e.getMessage()));
            }
            if (frame instanceof Frame.Snapshot
                    || frame instanceof Frame.Event && "message.sent".equals(((Frame.Event) frame).kind())) {
                messagesMentioned = true;
            }
        }
        refresh(board.drainChanges());
        if (messagesMentioned) {
            messagesChanged.run();
        }
    }

    /** The supervisor inbox fetched over REST (the event only says that a message was sent). */
    public void messagesFetched(List<MessageInfo> fetched) {
        board.replaceMessages(fetched);
        refresh(board.drainChanges());
    }

    private void refresh(Set<Topic> changed) {
        if (changed.isEmpty()) {
            return;
        }
        loaded.set(board.loaded());
        seq.set(board.seq());
        // Rows mix topics (a session row counts locks and shows waits), and there are at most a few
        // hundred of them, so every table is recomputed and synced by key; only changed rows move.
        sessions.sync(board.sessions().stream().map(s -> SessionRow.of(s, board)).toList());
        SharedFiles shared = SharedFiles.of(board.locks());
        locks.sync(board.locks().stream().map(l -> LockRow.of(l, board, shared)).toList());
        negotiations.sync(board.negotiations().stream().map(n -> NegotiationRow.of(n, board)).toList());
        messages.sync(board.messages().stream().map(m -> MessageRow.of(m, board))
                .sorted(Comparator.comparing(MessageRow::at, Comparator.nullsLast(Comparator.naturalOrder())))
                .toList());
        // Locks count too: two sessions changing one file in two copies of its repository are marked on the graph.
        // A lock change that leaves the graph equal redraws nothing: the view listens for a graph that differs.
        if (changed.contains(Topic.SESSIONS) || changed.contains(Topic.WAITS) || changed.contains(Topic.DEADLOCKS)
                || changed.contains(Topic.LOCKS)) {
            graph.set(WaitGraph.of(board));
        }
        List<ActivityEntry> fresh = board.drainActivity();
        if (!fresh.isEmpty()) {
            activity.addAll(fresh);
            int excess = activity.size() - ACTIVITY_LIMIT;
            if (excess > 0) {
                activity.remove(0, excess);
            }
        }
    }

    /** Which held files carry uncommitted changes, polled off the FX thread (git's answer is no event). */
    public void uncommittedFetched(Map<String, Boolean> uncommitted) {
        board.replaceUncommitted(uncommitted);
        refresh(board.drainChanges());
    }

    /** A reply of {@code GET /v1/team}, polled off the FX thread (the event stream carries this sidecar only). */
    public void teamFetched(TeamReply reply) {
        team.apply(reply, clock.instant());
    }

    public void teamPollFailed(Throwable error) {
        team.pollFailed(error, clock.instant());
    }

    /** Moves relative times and countdowns to the clock's current instant, unless the stream is down. */
    public void tick() {
        if (!offline.get()) {
            now.set(clock.instant());
        }
        // The team is polled on its own, and its rows say themselves when a poll failed.
        team.tick(clock.instant());
    }

    /**
     * A new state of the event stream. Once it drops after a connection, what the window shows is the state as of
     * that instant: it is marked offline since then until the stream is back.
     */
    public void connectionChanged(ConnectionStatus status) {
        boolean connected = status.state() == ConnectionState.CONNECTED;
        if (connected) {
            offlineSince.set(null);
            now.set(clock.instant());
        } else if (offlineSince.get() == null && connection.get().state() == ConnectionState.CONNECTED) {
            offlineSince.set(clock.instant());
        }
        offline.set(offlineSince.get() != null);
        since.set(offlineSince.get() == null ? "" : "since " + wallClock.format(offlineSince.get()));
        connection.set(status);
    }

    /** Called after a snapshot or a message event, so the inbox can be fetched (off the FX thread). */
    public void onMessagesChanged(Runnable action) {
        this.messagesChanged = action;
    }

    /** The team this sidecar shares its locks with; disabled and empty without one. */
    public TeamModel team() {
        return team;
    }

    public Board board() {
        return board;
    }

    public ReadOnlyObjectProperty<Instant> nowProperty() {
        return now;
    }

    public ReadOnlyObjectProperty<ConnectionStatus> connectionProperty() {
        return connection;
    }

    /** True from the moment the event stream dropped until it is back: the rows are as they were then. */
    public ReadOnlyBooleanProperty offlineProperty() {
        return offline;
    }

    /** When the stream dropped, null while it is up. */
    public ReadOnlyObjectProperty<Instant> offlineSinceProperty() {
        return offlineSince;
    }

    /** "since 14:02:11" (the clock's zone) while offline, empty otherwise. */
    public ReadOnlyStringProperty sinceProperty() {
        return since;
    }

    public ReadOnlyBooleanProperty loadedProperty() {
        return loaded;
    }

    public ReadOnlyLongProperty seqProperty() {
        return seq;
    }

    public ReadOnlyObjectProperty<WaitGraph> graphProperty() {
        return graph;
    }

    public ObservableList<SessionRow> sessions() {
        return sessions.rows();
    }

    public ObservableList<LockRow> locks() {
        return locks.rows();
    }

    public ObservableList<NegotiationRow> negotiations() {
        return negotiations.rows();
    }

    public ObservableList<MessageRow> messages() {
        return messages.rows();
    }

    public ObservableList<ActivityEntry> activity() {
        return activity;
    }
}
