package dev.baton.state;

import dev.baton.lock.FileLock;
import dev.baton.lock.NamedLock;
import dev.baton.message.Message;
import dev.baton.message.MessageReceipt;
import dev.baton.negotiation.Negotiation;
import dev.baton.session.EndedSession;
import dev.baton.session.Session;
import java.util.List;

/** Everything a store holds that the in-memory state is rebuilt from at start-up. */
public record Snapshot(List<Session> sessions, List<FileLock> locks, List<NamedLock> namedLocks,
                       List<Negotiation> negotiations, List<Message> messages, List<MessageReceipt> receipts,
                       List<EndedSession> endedSessions) {

    public Snapshot(List<Session> sessions, List<FileLock> locks, List<NamedLock> namedLocks) {
        this(sessions, locks, namedLocks, List.of(), List.of(), List.of(), List.of());
    }
}
