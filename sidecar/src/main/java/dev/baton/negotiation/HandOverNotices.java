package dev.baton.negotiation;

import dev.baton.lock.LockChange;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.SessionRows;
import dev.baton.state.Change;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tells a session that someone else took its files (the supervisor's force-release or end-session, a requester's
 * force-release after a timed-out negotiation): once, on its next hook call, so it re-reads them instead of editing
 * from a stale copy. Kept in memory: after a restart the release is still in the audit log and activity.
 */
public final class HandOverNotices implements Ledger.Interceptor {

    /** Session id to the lines it has not been shown yet. */
    private final Map<String, List<String>> pending = new HashMap<>();

    @Override
    public void beforeCommit(Transaction tx, List<Change> changes) {
        // One line per (former holder, actor, reason) in this transaction: ending a session frees many files at once.
        Map<List<String>, List<String>> freed = new LinkedHashMap<>();
        for (Change change : changes) {
            if (change instanceof LockChange.LockRemoved removed && removed.actor() != null
                    && !removed.actor().equals(removed.lock().sessionId())) {
                freed.computeIfAbsent(List.of(removed.lock().sessionId(), removed.actor(), removed.reason().wireName()),
                        key -> new ArrayList<>()).add(removed.lock().file());
            }
        }
        freed.forEach((key, files) -> {
            String holder = key.get(0);
            String line = notice(tx.world(), holder, key.get(1), key.get(2), files, tx.now());
            synchronized (pending) {
                pending.computeIfAbsent(holder, id -> new ArrayList<>()).add(line);
            }
            tx.onRollback(() -> {
                synchronized (pending) {
                    List<String> lines = pending.get(holder);
                    if (lines != null) {
                        lines.remove(line);
                    }
                }
            });
        });
    }

    /** The lines for this session's next hook call; each is returned once. */
    public List<String> take(String sessionId) {
        synchronized (pending) {
            List<String> lines = pending.remove(sessionId);
            return lines == null ? List.of() : lines;
        }
    }

    static String notice(World world, String holder, String actor, String reason, List<String> files, Instant at) {
        List<String> shown = files.stream().map(file -> Parties.fileFor(world, holder, file)).toList();
        String what = String.join(", ", shown);
        String when = at.truncatedTo(ChronoUnit.SECONDS).toString();
        String how = ReleaseReason.SESSION_ENDED.wireName().equals(reason)
                ? who(world, actor) + " ended this session at " + when + " and released " + what
                : who(world, actor) + " released " + what + " at " + when;
        return "Baton: " + how + "; " + (shown.size() == 1 ? "it is" : "they are") + " no longer yours and may have"
                + " changed: re-read " + (shown.size() == 1 ? "it" : "them") + " before editing (the edit takes "
                + (shown.size() == 1 ? "it" : "them") + " again if free).";
    }

    private static String who(World world, String actor) {
        if (actor.startsWith("supervisor ")) { // the only actor the supervisor's routes record (http.Supervisor)
            return "the " + actor;
        }
        if (world.find(SessionRows.SESSIONS, actor).isPresent()) {
            return Parties.describe(world, actor) + ", whose request timed out,";
        }
        return actor;
    }
}
