package dev.baton.events;

import dev.baton.Baton;
import dev.baton.deadlock.DeadlockChange;
import dev.baton.deadlock.Wait;
import dev.baton.deadlock.WaitView;
import dev.baton.http.Views;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockChange;
import dev.baton.lock.LockRows;
import dev.baton.message.Message;
import dev.baton.message.MessageChange;
import dev.baton.negotiation.Negotiation;
import dev.baton.negotiation.NegotiationChange;
import dev.baton.negotiation.NegotiationRows;
import dev.baton.negotiation.NegotiationStatus;
import dev.baton.negotiation.NegotiationView;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.Plan;
import dev.baton.session.Session;
import dev.baton.session.SessionChange;
import dev.baton.session.SessionRows;
import dev.baton.state.Change;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import dev.baton.version.Versions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The one place where a committed {@link Change} becomes events of the stream: a new Change type
 * gets its branch in {@link #of}. Heartbeats are not sent (too chatty), so a session save is compared
 * with the session as last announced.
 */
final class ChangeEvents {

    /** An event before it has its sequence number. */
    record Draft(String kind, Object data) {
    }

    private final Baton baton;
    /** Sessions as the stream last described them; changed with undo, so a failed commit forgets nothing. */
    private final Map<String, Session> announced = new HashMap<>();
    /** Each negotiation's state as last announced, so bookkeeping updates of its row emit nothing. */
    private final Map<String, NegotiationStatus> negotiationStates = new HashMap<>();

    ChangeEvents(Baton baton, World world) {
        this.baton = baton;
        world.rows(SessionRows.SESSIONS).forEach(session -> announced.put(session.id(), session));
        world.rows(NegotiationRows.NEGOTIATIONS).forEach(n -> negotiationStates.put(n.id(), n.state()));
    }

    List<Draft> of(Transaction tx, List<Change> changes) {
        World world = tx.world();
        List<Draft> drafts = new ArrayList<>();
        Map<String, StaleCleaning> stale = new LinkedHashMap<>();
        for (Change change : changes) {
            if (change instanceof SessionChange.SessionSaved saved) {
                sessionSaved(tx, saved.session(), drafts);
            } else if (change instanceof LockChange.SessionRemoved removed) {
                Session session = removed.session();
                remember(tx, session.id(), null);
                drafts.add(draft("session.ended", "session_id", session.id(), "reason", removed.reason().wireName()));
                if (isStale(removed.reason())) {
                    stale.computeIfAbsent(session.id(), id -> new StaleCleaning(id, removed.reason()));
                }
            } else if (change instanceof LockChange.LockSaved saved) {
                drafts.add(draft(saved.newlyAcquired() ? "lock.acquired" : "lock.updated",
                        "lock", Views.lock(baton, world, saved.lock())));
            } else if (change instanceof LockChange.LockRemoved removed) {
                FileLock lock = removed.lock();
                drafts.add(draft("lock.released", "file", lock.file(), "session_id", lock.sessionId(),
                        "reason", removed.reason().wireName(), "actor", removed.actor()));
                if (isStale(removed.reason())) {
                    stale.computeIfAbsent(lock.sessionId(), id -> new StaleCleaning(id, removed.reason()))
                            .files.add(lock.file());
                }
            } else if (change instanceof LockChange.NamedLockSaved saved) {
                drafts.add(draft("named_lock.acquired", "named_lock", Views.named(baton, saved.lock())));
            } else if (change instanceof LockChange.NamedLockRemoved removed) {
                drafts.add(draft("named_lock.released", "name", removed.lock().name(),
                        "reason", removed.reason().wireName()));
            } else if (change instanceof Change.Audited audited && "deny".equals(audited.entry().action())) {
                drafts.add(draft("lock.denied", "file", audited.entry().file(), "session_id", audited.entry().sessionId(),
                        "holder", audited.entry().actor()));
            } else if (change instanceof Change.Audited audited && "impersonation-refused".equals(audited.entry().action())) {
                drafts.add(draft("security.impersonation_refused", "session_id", audited.entry().sessionId(),
                        "attempt", audited.entry().reason(), "by", audited.entry().actor()));
            } else if (change instanceof Change.Audited audited && "session-end".equals(audited.entry().action())
                    && audited.entry().actor() != null) {
                endedBy(drafts, audited.entry().sessionId(), audited.entry().actor());
            } else if (change instanceof Change.Audited audited && "shell-write-conflict".equals(audited.entry().action())) {
                String offered = offeredVersion(changes, audited.entry().file());
                drafts.add(draft("shell.write_conflict", "file", audited.entry().file(), "session_id",
                        audited.entry().sessionId(), "holder", audited.entry().actor(), "command", audited.entry().reason(),
                        "version", offered, "restore", offered == null ? null : Versions.restoreCommand(audited.entry().file())));
            } else if (change instanceof Change.Audited audited && Versions.RESTORED.equals(audited.entry().action())) {
                drafts.add(draft("version.restored", "file", audited.entry().file(), "holder", audited.entry().sessionId(),
                        "version", hash(audited.entry().reason()), "by", audited.entry().actor()));
            } else if (change instanceof DeadlockChange.WaitStarted started) {
                drafts.add(draft("wait.started", "wait", waitView(world, started.waiting())));
            } else if (change instanceof DeadlockChange.WaitEnded ended) {
                Wait wait = ended.waiting();
                drafts.add(draft("wait.ended", "waiter", wait.waiter(), "file", wait.file(), "kind", wait.kind().wireName()));
            } else if (change instanceof DeadlockChange.DeadlockDetected detected) {
                drafts.add(draft("deadlock.detected", "deadlock", detected.deadlock()));
            } else if (change instanceof DeadlockChange.DeadlockResolved resolved) {
                drafts.add(draft("deadlock.resolved", "id", resolved.deadlock().id(), "how", resolved.how()));
            } else if (change instanceof NegotiationChange.NegotiationSaved saved) {
                negotiationSaved(tx, saved.negotiation(), drafts);
            } else if (change instanceof MessageChange.MessageSaved saved) {
                Message message = saved.message();
                drafts.add(draft("message.sent", "id", message.id(), "from", message.senderId(), "to", message.recipient(),
                        "at", message.sentAt()));
            }
            // Other audit entries, event rows and pruning describe nothing new to a client.
        }
        stale.values().forEach(cleaning -> drafts.add(draft("stale.cleaned", "session_id", cleaning.sessionId,
                "reason", cleaning.reason.wireName(), "files", cleaning.files)));
        return drafts;
    }

    /** Names who ended a session (the supervisor) on its session.ended event, written just before in this transaction. */
    @SuppressWarnings("unchecked")
    private static void endedBy(List<Draft> drafts, String sessionId, String actor) {
        for (int i = drafts.size() - 1; i >= 0; i--) {
            Draft draft = drafts.get(i);
            if (draft.kind().equals("session.ended") && sessionId.equals(((Map<String, Object>) draft.data()).get("session_id"))) {
                ((Map<String, Object>) draft.data()).put("actor", actor);
                return;
            }
        }
    }

    private void sessionSaved(Transaction tx, Session session, List<Draft> drafts) {
        Session before = announced.get(session.id());
        if (before != null && before.equals(session.withHeartbeat(before.lastHeartbeat()))) {
            return; // a heartbeat only
        }
        remember(tx, session.id(), session);
        if (before == null) {
            drafts.add(draft("session.started", "session", Views.session(baton, tx.world(), session)));
            return;
        }
        boolean planChanged = !Objects.equals(before.plan(), session.plan());
        if (planChanged) {
            Plan plan = session.plan();
            drafts.add(draft("plan.updated", "session_id", session.id(), "goal", plan == null ? null : plan.goal(),
                    "current_task", plan == null ? null : plan.currentTask()));
        }
        Session withOldPlan = session.withPlan(before.plan()).withHeartbeat(before.lastHeartbeat());
        if (!planChanged || !withOldPlan.equals(before)) {
            drafts.add(draft("session.updated", "session", Views.session(baton, tx.world(), session)));
        }
    }

    /** One event per step a client cares about; a row saved only to record who was told emits nothing. */
    private void negotiationSaved(Transaction tx, Negotiation negotiation, List<Draft> drafts) {
        NegotiationStatus before = negotiationStates.get(negotiation.id());
        NegotiationStatus now = negotiation.state();
        if (now == before) {
            return;
        }
        negotiationStates.put(negotiation.id(), now);
        tx.onRollback(() -> {
            if (before == null) {
                negotiationStates.remove(negotiation.id());
            } else {
                negotiationStates.put(negotiation.id(), before);
            }
        });
        String kind;
        if (before == null) {
            kind = "negotiation.opened";
        } else if (now == NegotiationStatus.TIMEOUT_ELIGIBLE) {
            kind = "negotiation.timeout_eligible";
        } else if (now.isOpen()) {
            kind = "negotiation.answered";
        } else {
            kind = "negotiation.resolved";
        }
        drafts.add(draft(kind, "negotiation", NegotiationView.of(tx.world(), negotiation, tx.now())));
    }

    private void remember(Transaction tx, String id, Session session) {
        Session previous = session == null ? announced.remove(id) : announced.put(id, session);
        tx.onRollback(() -> {
            if (previous == null) {
                announced.remove(id);
            } else {
                announced.put(id, previous);
            }
        });
    }

    private static WaitView waitView(World world, Wait wait) {
        return new WaitView(wait.waiter(), world.find(LockRows.FILES, wait.file()).map(FileLock::sessionId).orElse(null),
                wait.file(), wait.kind().wireName(), wait.since());
    }

    /** The version offered to the holder in the same transaction as a change to its file, if one was. */
    private static String offeredVersion(List<Change> changes, String file) {
        return changes.stream().filter(Change.Audited.class::isInstance).map(Change.Audited.class::cast)
                .map(Change.Audited::entry)
                .filter(entry -> Versions.OFFERED.equals(entry.action()) && Objects.equals(file, entry.file()))
                .map(entry -> hash(entry.reason())).findFirst().orElse(null);
    }

    /** The hash of a version's audit reason ("sha256 HASH…"). */
    private static String hash(String reason) {
        String[] words = reason == null ? new String[0] : reason.split("[ ,]+");
        return words.length > 1 ? words[1] : null;
    }

    private static boolean isStale(ReleaseReason reason) {
        return reason == ReleaseReason.HOLDER_EXITED || reason == ReleaseReason.HEARTBEAT_EXPIRED;
    }

    /** Data as an ordered map of name/value pairs; null values are left out, as everywhere on the wire. */
    private static Draft draft(String kind, Object... pairs) {
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                data.put((String) pairs[i], pairs[i + 1]);
            }
        }
        return new Draft(kind, data);
    }

    private static final class StaleCleaning {
        final String sessionId;
        final ReleaseReason reason;
        final List<String> files = new ArrayList<>();

        StaleCleaning(String sessionId, ReleaseReason reason) {
            this.sessionId = sessionId;
            this.reason = reason;
        }
    }
}
