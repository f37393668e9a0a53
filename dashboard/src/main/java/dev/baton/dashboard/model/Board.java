package dev.baton.dashboard.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.dashboard.protocol.DeadlockInfo;
import dev.baton.dashboard.protocol.Frame;
import dev.baton.dashboard.protocol.LockInfo;
import dev.baton.dashboard.protocol.MessageInfo;
import dev.baton.dashboard.protocol.NamedLockInfo;
import dev.baton.dashboard.protocol.NegotiationInfo;
import dev.baton.dashboard.protocol.ProtocolException;
import dev.baton.dashboard.protocol.SessionInfo;
import dev.baton.dashboard.protocol.StateSnapshot;
import dev.baton.dashboard.protocol.WaitInfo;
import dev.baton.dashboard.protocol.WireJson;
import dev.baton.naming.SessionName;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The sidecar's state as the dashboard knows it: a snapshot plus every event applied since, in order.
 * Plain Java, no JavaFX: it remembers which topics changed so views rebuild only those.
 */
public final class Board {

    private final Map<String, SessionInfo> sessions = new LinkedHashMap<>();
    private final Map<String, LockInfo> locks = new TreeMap<>();
    private final Map<String, NamedLockInfo> namedLocks = new TreeMap<>();
    private final Map<String, WaitInfo> waits = new LinkedHashMap<>();
    private final Map<String, NegotiationInfo> negotiations = new LinkedHashMap<>();
    private final Map<String, DeadlockInfo> deadlocks = new LinkedHashMap<>();
    private final Map<String, MessageInfo> messages = new LinkedHashMap<>();
    private final Map<String, Boolean> uncommitted = new LinkedHashMap<>();
    private final List<ActivityEntry> newActivity = new ArrayList<>();
    private final EnumSet<Topic> changed = EnumSet.noneOf(Topic.class);
    private final EventSummary summaries = new EventSummary(this);
    private long seq = -1;
    private boolean loaded;

    public void apply(Frame frame) {
        if (frame instanceof Frame.Snapshot) {
            load((Frame.Snapshot) frame);
        } else if (frame instanceof Frame.Event) {
            Frame.Event event = (Frame.Event) frame;
            // Summarise before applying, so an ending session is still named in its own entry.
            newActivity.add(new ActivityEntry(event.seq(), event.at(), event.kind(), summaries.of(event.kind(), event.data())));
            changed.add(Topic.ACTIVITY);
            applyEvent(event.kind(), event.data());
            seq = event.seq();
        }
    }

    private void load(Frame.Snapshot snapshot) {
        StateSnapshot state = snapshot.state();
        sessions.clear();
        locks.clear();
        namedLocks.clear();
        waits.clear();
        negotiations.clear();
        deadlocks.clear();
        state.sessions().forEach(s -> sessions.put(s.id(), s));
        state.locks().forEach(l -> locks.put(l.file(), l));
        state.namedLocks().forEach(n -> namedLocks.put(n.name(), n));
        state.waits().forEach(w -> waits.put(waitKey(w.waiter(), w.file(), w.kind()), w));
        state.negotiations().forEach(n -> negotiations.put(n.id(), n));
        state.deadlocks().forEach(d -> deadlocks.put(d.id(), d));
        seq = snapshot.seq();
        loaded = true;
        changed.addAll(EnumSet.allOf(Topic.class));
    }

    private void applyEvent(String kind, JsonNode data) {
        switch (kind) {
            case "session.started":
            case "session.updated":
                putSession(read(data.path("session"), SessionInfo.class));
                break;
            case "session.ended":
                endSession(data.path("session_id").asText());
                break;
            case "lock.acquired":
            case "lock.updated":
                LockInfo lock = read(data.path("lock"), LockInfo.class);
                locks.put(lock.file(), lock);
                changed.add(Topic.LOCKS);
                break;
            case "lock.released":
                releaseLock(data.path("file").asText(), text(data, "session_id"));
                break;
            case "named_lock.acquired":
                NamedLockInfo named = read(data.path("named_lock"), NamedLockInfo.class);
                namedLocks.put(named.name(), named);
                changed.add(Topic.NAMED_LOCKS);
                break;
            case "named_lock.released":
                namedLocks.remove(data.path("name").asText());
                changed.add(Topic.NAMED_LOCKS);
                break;
            case "wait.started":
                WaitInfo wait = read(data.path("wait"), WaitInfo.class);
                waits.put(waitKey(wait.waiter(), wait.file(), wait.kind()), wait);
                changed.add(Topic.WAITS);
                break;
            case "wait.ended":
                waits.remove(waitKey(text(data, "waiter"), text(data, "file"), text(data, "kind")));
                changed.add(Topic.WAITS);
                break;
            case "negotiation.opened":
            case "negotiation.answered":
            case "negotiation.resolved":
            case "negotiation.timeout_eligible":
                NegotiationInfo negotiation = read(data.path("negotiation"), NegotiationInfo.class);
                negotiations.put(negotiation.id(), negotiation);
                changed.add(Topic.NEGOTIATIONS);
                break;
            case "message.sent":
                MessageInfo message = read(data, MessageInfo.class);
                messages.merge(message.id(), message, (old, fresh) -> old);
                changed.add(Topic.MESSAGES);
                break;
            case "plan.updated":
                String id = text(data, "session_id");
                SessionInfo session = sessions.get(id);
                if (session != null) {
                    putSession(session.withPlan(new SessionInfo.PlanInfo(text(data, "goal"), text(data, "current_task"), null)));
                }
                break;
            case "deadlock.detected":
                DeadlockInfo deadlock = read(data.path("deadlock"), DeadlockInfo.class);
                deadlocks.put(deadlock.id(), deadlock);
                changed.add(Topic.DEADLOCKS);
                break;
            case "deadlock.resolved":
                deadlocks.remove(data.path("id").asText());
                changed.add(Topic.DEADLOCKS);
                break;
            case "stale.cleaned":
                String stale = text(data, "session_id");
                data.path("files").forEach(file -> releaseLock(file.asText(), stale));
                break;
            default:
                // lock.denied and kinds of newer sidecars change no state; they still reach the activity log.
                break;
        }
    }

    private void putSession(SessionInfo session) {
        sessions.put(session.id(), session);
        changed.add(Topic.SESSIONS);
    }

    private void endSession(String id) {
        sessions.remove(id);
        // The sidecar also sends lock.released and wait.ended for these; dropping them here keeps
        // the board right even if those events are coalesced away.
        locks.values().removeIf(lock -> id.equals(lock.holderSession()));
        waits.values().removeIf(wait -> id.equals(wait.waiter()));
        changed.addAll(EnumSet.of(Topic.SESSIONS, Topic.LOCKS, Topic.WAITS));
    }

    private void releaseLock(String file, String session) {
        LockInfo lock = locks.get(file);
        if (lock != null && (session == null || session.equals(lock.holderSession()))) {
            locks.remove(file);
            changed.add(Topic.LOCKS);
        }
    }

    /** Replaces the messages with the supervisor inbox just fetched; events after the fetch are kept. */
    /** Which held files carry uncommitted changes, as git last said (polled: no event carries it). */
    public void replaceUncommitted(Map<String, Boolean> fetched) {
        if (!uncommitted.equals(fetched)) {
            uncommitted.clear();
            uncommitted.putAll(fetched);
            changed.add(Topic.LOCKS);
        }
    }

    /** Whether the held file carries uncommitted changes; null when nobody has said. */
    public Boolean uncommitted(String file) {
        return uncommitted.get(file);
    }

    public void replaceMessages(List<MessageInfo> fetched) {
        Map<String, MessageInfo> fresh = new LinkedHashMap<>();
        fetched.forEach(m -> fresh.put(m.id(), m));
        messages.forEach((id, m) -> fresh.putIfAbsent(id, m));
        messages.clear();
        messages.putAll(fresh);
        changed.add(Topic.MESSAGES);
    }

    /** The topics changed since the last call, and forgets them. */
    public Set<Topic> drainChanges() {
        Set<Topic> drained = EnumSet.copyOf(changed.isEmpty() ? EnumSet.noneOf(Topic.class) : changed);
        changed.clear();
        return drained;
    }

    /** The activity entries added since the last call, oldest first. */
    public List<ActivityEntry> drainActivity() {
        List<ActivityEntry> drained = List.copyOf(newActivity);
        newActivity.clear();
        return drained;
    }

    public boolean loaded() {
        return loaded;
    }

    public long seq() {
        return seq;
    }

    public Collection<SessionInfo> sessions() {
        return Collections.unmodifiableCollection(sessions.values());
    }

    public Optional<SessionInfo> session(String id) {
        return Optional.ofNullable(id == null ? null : sessions.get(id));
    }

    public Collection<LockInfo> locks() {
        return Collections.unmodifiableCollection(locks.values());
    }

    public List<LockInfo> locksOf(String sessionId) {
        return locks.values().stream().filter(lock -> sessionId.equals(lock.holderSession())).toList();
    }

    public Collection<NamedLockInfo> namedLocks() {
        return Collections.unmodifiableCollection(namedLocks.values());
    }

    public Collection<WaitInfo> waits() {
        return Collections.unmodifiableCollection(waits.values());
    }

    public Collection<NegotiationInfo> negotiations() {
        return Collections.unmodifiableCollection(negotiations.values());
    }

    public Collection<DeadlockInfo> deadlocks() {
        return Collections.unmodifiableCollection(deadlocks.values());
    }

    public Collection<MessageInfo> messages() {
        return Collections.unmodifiableCollection(messages.values());
    }

    /**
     * A session as people read it, the same on every row, card, arrow and line: the label its sidecar gives it
     * ({@code claude-code 3f2a9c1e}, or the name it was given); for a session the board no longer lists, the label
     * of a lock it holds, else {@code session} and its short id.
     */
    public String label(String sessionId) {
        if (sessionId == null) {
            return "—";
        }
        SessionInfo session = sessions.get(sessionId);
        if (session != null) {
            return session.label() != null ? session.label() : SessionName.of(session.agent(), sessionId, session.name());
        }
        Optional<LockInfo.Holder> holder = heldBy(sessionId);
        if (holder.isPresent()) {
            LockInfo.Holder h = holder.get();
            return h.label() != null ? h.label() : SessionName.of(h.agent(), sessionId, h.name());
        }
        return remote(sessionId).map(shown -> "session " + shown).orElse(SessionName.of(null, sessionId, null));
    }

    /** What a session's card shows under its agent: the name it was given, else its short id. */
    public String nameOrShortId(String sessionId) {
        if (sessionId == null) {
            return "—";
        }
        SessionInfo session = sessions.get(sessionId);
        String name = session != null ? session.name() : heldBy(sessionId).map(LockInfo.Holder::name).orElse(null);
        if (name != null && !name.isBlank()) {
            return name.strip();
        }
        return session == null ? remote(sessionId).orElse(shortId(sessionId)) : shortId(sessionId);
    }

    /**
     * A session of another machine of a team, as the sidecar names it in a deadlock ({@code MACHINE/SESSION}):
     * "SHORT-ID on MACHINE". Empty for an id of no such form, or a subagent's ({@code PARENT/AGENT}) of a known parent.
     */
    private Optional<String> remote(String sessionId) {
        int slash = sessionId.indexOf('/');
        if (slash <= 0 || sessions.containsKey(sessionId.substring(0, slash))) {
            return Optional.empty();
        }
        return Optional.of(shortId(sessionId.substring(slash + 1)) + " on " + sessionId.substring(0, slash));
    }

    /** A session id shortened between words, as the sidecar shortens it. */
    public static String shortId(String sessionId) {
        return SessionName.shortId(sessionId);
    }

    private Optional<LockInfo.Holder> heldBy(String sessionId) {
        return locks.values().stream().map(LockInfo::holder)
                .filter(h -> h != null && sessionId.equals(h.session())).findFirst();
    }

    /** A file as its holder's repository sees it (repo-relative), else the absolute path. */
    public String shownPath(String file, String sessionId) {
        if (file == null) {
            return "";
        }
        SessionInfo session = sessionId == null ? null : sessions.get(sessionId);
        String root = session == null ? null : session.repoRoot() != null ? session.repoRoot() : session.cwd();
        if (root != null && file.startsWith(root.endsWith("/") ? root : root + "/")) {
            return file.substring(root.length() + (root.endsWith("/") ? 0 : 1));
        }
        return file;
    }

    private static String waitKey(String waiter, String file, String kind) {
        return waiter + '\u0000' + file + '\u0000' + kind;
    }

    private static String text(JsonNode data, String field) {
        JsonNode node = data.path(field);
        return node.isNull() || node.isMissingNode() ? null : node.asText();
    }

    private static <T> T read(JsonNode node, Class<T> type) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            throw new ProtocolException("an event is missing its " + type.getSimpleName() + " object");
        }
        try {
            return WireJson.mapper().treeToValue(node, type);
        } catch (JsonProcessingException e) {
            throw new ProtocolException("an event carries an unreadable " + type.getSimpleName() + ": " + e.getOriginalMessage());
        }
    }
}
