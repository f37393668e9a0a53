package dev.baton.state;

import dev.baton.lock.FileLock;
import dev.baton.lock.NamedLock;
import dev.baton.session.Session;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
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

    World(Snapshot snapshot) {
        snapshot.sessions().forEach(this::putSession);
        snapshot.locks().forEach(this::putLock);
        snapshot.namedLocks().forEach(this::putNamedLock);
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

    Session putSession(Session session) {
        return sessions.put(session.id(), session);
    }

    Session removeSession(String id) {
        return sessions.remove(id);
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
