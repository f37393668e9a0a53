package dev.baton.state;

import dev.baton.lock.FileLock;
import dev.baton.lock.NamedLock;
import dev.baton.message.Message;
import dev.baton.message.MessageReceipt;
import dev.baton.negotiation.Negotiation;
import dev.baton.session.EndedSession;
import dev.baton.session.Session;
import java.time.Instant;
import java.util.Comparator;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The in-memory copy of everything the store holds, indexed for the lookups every request makes
 * (a file's holder, a session's files). Read it only inside {@link Ledger#read} or a transaction;
 * it is changed only by {@link Transaction}.
 */
public final class World {

    private final Map<String, Session> sessions = new HashMap<>();
    private final Map<String, FileLock> locks = new HashMap<>();
    private final Map<String, SortedSet<String>> filesBySession = new HashMap<>();
    private final Map<String, NamedLock> namedLocks = new HashMap<>();
    private final Map<String, Negotiation> negotiations = new LinkedHashMap<>();
    private final TreeMap<Long, Message> messages = new TreeMap<>();
    private final Map<Long, Map<String, MessageReceipt>> receipts = new HashMap<>();
    private final Map<String, EndedSession> endedSessions = new HashMap<>();
    private long lastMessageId;

    World(Snapshot snapshot) {
        snapshot.sessions().forEach(this::putSession);
        snapshot.locks().forEach(this::putLock);
        snapshot.namedLocks().forEach(this::putNamedLock);
        snapshot.negotiations().forEach(this::putNegotiation);
        snapshot.messages().forEach(this::putMessage);
        snapshot.receipts().forEach(this::putReceipt);
        snapshot.endedSessions().forEach(this::putEndedSession);
    }

    public Optional<Session> session(String id) {
        return Optional.ofNullable(sessions.get(id));
    }

    public Collection<Session> sessions() {
        return Collections.unmodifiableCollection(sessions.values());
    }

    public List<Session> subagentsOf(String parentId) {
        return sessions.values().stream().filter(s -> parentId.equals(s.parentId())).toList();
    }

    /** A main session that ended and whose id has not been taken up again. */
    public Optional<EndedSession> endedSession(String id) {
        return Optional.ofNullable(endedSessions.get(id));
    }

    public Collection<EndedSession> endedSessions() {
        return Collections.unmodifiableCollection(endedSessions.values());
    }

    public Optional<FileLock> lock(String file) {
        return Optional.ofNullable(locks.get(file));
    }

    public Collection<FileLock> locks() {
        return Collections.unmodifiableCollection(locks.values());
    }

    public int lockCount() {
        return locks.size();
    }

    /** The files a session holds, in sorted order. */
    public SortedSet<String> filesOf(String sessionId) {
        SortedSet<String> files = filesBySession.get(sessionId);
        return files == null ? Collections.emptySortedSet() : Collections.unmodifiableSortedSet(files);
    }

    public Optional<NamedLock> namedLock(String name) {
        return Optional.ofNullable(namedLocks.get(name));
    }

    public Collection<NamedLock> namedLocks() {
        return Collections.unmodifiableCollection(namedLocks.values());
    }

    public Optional<Negotiation> negotiation(String id) {
        return Optional.ofNullable(negotiations.get(id));
    }

    /** All negotiations, open and recently resolved, oldest first. */
    public Collection<Negotiation> negotiations() {
        return Collections.unmodifiableCollection(negotiations.values());
    }

    public Optional<Message> message(long id) {
        return Optional.ofNullable(messages.get(id));
    }

    /** All kept messages by id, oldest first. */
    public NavigableMap<Long, Message> messages() {
        return Collections.unmodifiableNavigableMap(messages);
    }

    public Optional<MessageReceipt> receipt(long messageId, String sessionId) {
        Map<String, MessageReceipt> byRecipient = receipts.get(messageId);
        return byRecipient == null ? Optional.empty() : Optional.ofNullable(byRecipient.get(sessionId));
    }

    /** The id the next message gets; ids only grow while the sidecar runs. */
    public long nextMessageId() {
        return lastMessageId + 1;
    }

    Session putSession(Session session) {
        return sessions.put(session.id(), session);
    }

    Session removeSession(String id) {
        return sessions.remove(id);
    }

    EndedSession putEndedSession(EndedSession ended) {
        return endedSessions.put(ended.id(), ended);
    }

    EndedSession removeEndedSession(String id) {
        return endedSessions.remove(id);
    }

    /** The ended sessions a prune with these bounds forgets: ended before {@code before}, or past the newest {@code keep}. */
    List<EndedSession> endedSessionsPastRetention(Instant before, int keep) {
        List<EndedSession> newestFirst = endedSessions.values().stream()
                .sorted(Comparator.comparing(EndedSession::endedAt).reversed().thenComparing(EndedSession::id))
                .toList();
        List<EndedSession> past = new java.util.ArrayList<>();
        for (int i = 0; i < newestFirst.size(); i++) {
            EndedSession ended = newestFirst.get(i);
            if (i >= keep || ended.endedAt().isBefore(before)) {
                past.add(ended);
            }
        }
        return past;
    }

    FileLock putLock(FileLock lock) {
        FileLock previous = locks.put(lock.file(), lock);
        if (previous != null && !previous.sessionId().equals(lock.sessionId())) {
            unindex(previous);
        }
        filesBySession.computeIfAbsent(lock.sessionId(), id -> new TreeSet<>()).add(lock.file());
        return previous;
    }

    FileLock removeLock(String file) {
        FileLock previous = locks.remove(file);
        if (previous != null) {
            unindex(previous);
        }
        return previous;
    }

    NamedLock putNamedLock(NamedLock lock) {
        return namedLocks.put(lock.name(), lock);
    }

    NamedLock removeNamedLock(String name) {
        return namedLocks.remove(name);
    }

    Negotiation putNegotiation(Negotiation negotiation) {
        return negotiations.put(negotiation.id(), negotiation);
    }

    Negotiation removeNegotiation(String id) {
        return negotiations.remove(id);
    }

    Message putMessage(Message message) {
        lastMessageId = Math.max(lastMessageId, message.id());
        return messages.put(message.id(), message);
    }

    /** Removes the message and its receipts; returns the receipts so an undo can put them back. */
    Map<String, MessageReceipt> removeMessage(long id) {
        messages.remove(id);
        Map<String, MessageReceipt> removed = receipts.remove(id);
        return removed == null ? Map.of() : removed;
    }

    MessageReceipt putReceipt(MessageReceipt receipt) {
        return receipts.computeIfAbsent(receipt.messageId(), id -> new HashMap<>()).put(receipt.sessionId(), receipt);
    }

    void removeReceipt(long messageId, String sessionId) {
        Map<String, MessageReceipt> byRecipient = receipts.get(messageId);
        if (byRecipient != null) {
            byRecipient.remove(sessionId);
            if (byRecipient.isEmpty()) {
                receipts.remove(messageId);
            }
        }
    }

    private void unindex(FileLock lock) {
        SortedSet<String> files = filesBySession.get(lock.sessionId());
        if (files != null) {
            files.remove(lock.file());
            if (files.isEmpty()) {
                filesBySession.remove(lock.sessionId());
            }
        }
    }
}
