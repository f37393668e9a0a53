package dev.baton.lock;

import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.Change;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Files whose holder went away (its process exited, or it fell silent past the heartbeat TTL) and were freed with
 * whatever it had changed still in them. The next session to take such a file is told whose change it carries, once,
 * so it reviews it rather than building on it unknowingly. Kept in memory: a file freed before a restart of the
 * sidecar and taken after it is not told (the release stays in its audit trail).
 */
public final class LeftOverWork implements Ledger.Interceptor {

    /** Who left a file and when. */
    public record Left(String file, String sessionId, String agent, ReleaseReason reason, Instant at) {
    }

    private final Map<String, Left> byFile = new HashMap<>();

    @Override
    public void beforeCommit(Transaction tx, List<Change> changes) {
        Map<String, String> agents = new HashMap<>();
        for (Change change : changes) {
            if (change instanceof LockChange.SessionRemoved removed) {
                agents.put(removed.session().id(), removed.session().agent().wireName());
            }
        }
        for (Change change : changes) {
            if (change instanceof LockChange.LockRemoved removed && (removed.reason() == ReleaseReason.HOLDER_EXITED
                    || removed.reason() == ReleaseReason.HEARTBEAT_EXPIRED)) {
                String holder = removed.lock().sessionId();
                String agent = agents.getOrDefault(holder,
                        tx.world().find(SessionRows.SESSIONS, holder).map(Session::agent).map(kind -> kind.wireName())
                                .orElse(null));
                Left left = new Left(removed.lock().file(), holder, agent, removed.reason(), tx.now());
                synchronized (byFile) {
                    byFile.put(left.file(), left);
                }
                tx.onRollback(() -> {
                    synchronized (byFile) {
                        byFile.remove(left.file(), left);
                    }
                });
            }
        }
    }

    /** Who left {@code file}, if a holder that went away did; told once: the entry is gone afterwards. */
    public Optional<Left> take(String file) {
        synchronized (byFile) {
            return Optional.ofNullable(byFile.remove(file));
        }
    }

    /**
     * What the session taking {@code file} reads, when a holder that went away left it changed ({@code changed}
     * tells whether the file carries uncommitted changes); empty otherwise. The audit trail records the hand-over.
     *
     * @param shown the file as the taker's messages show it
     */
    public Optional<String> noticeFor(String file, String shown, String taker, java.util.function.Predicate<String> changed,
                                      Ledger ledger) {
        if (isEmpty()) {
            return Optional.empty();
        }
        Optional<Left> left = take(file).filter(l -> !l.sessionId().equals(taker) && changed.test(file));
        left.ifPresent(l -> ledger.write(tx -> {
            tx.audit("left-over-work", taker, file, "uncommitted changes of session " + l.sessionId() + " ("
                    + (l.agent() == null ? "" : l.agent() + ", ") + l.reason().wireName() + " at " + l.at().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + ")",
                    l.sessionId());
            return null;
        }));
        return left.map(l -> "Baton: " + shown + " still carries the uncommitted changes of "
                + (l.agent() == null ? "session " : l.agent() + " session ") + HeldMessage.shortId(l.sessionId()) + ", which"
                + (l.reason() == ReleaseReason.HOLDER_EXITED ? " ended" : " fell silent") + " at " + l.at().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + " without"
                + " committing or undoing them. You hold the file now: review them with `git diff -- " + HeldMessage.quoted(shown)
                + "` before you build on them.");
    }

    /** Whether any file waits to be told about: the usual answer, no, costs no lookup per file. */
    public boolean isEmpty() {
        synchronized (byFile) {
            return byFile.isEmpty();
        }
    }
}
