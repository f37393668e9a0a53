package dev.baton.shell;

import dev.baton.Baton;
import dev.baton.lock.FileLock;
import dev.baton.session.ProcessAncestry;
import dev.baton.session.Session;
import dev.baton.state.BatonException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles a shell command that ended (its PostToolUse, the wrapper's report, the session's next command, the turn's
 * end): its index turns end, the files taken for it are done being edited, and what it changed is claimed or
 * recorded and told ({@link AfterCheck#settle}).
 */
final class Settlement {

    private static final Logger LOG = LoggerFactory.getLogger(Settlement.class);

    private final Baton baton;
    private final AfterCheck afterCheck;
    private final IndexTurns turns;

    Settlement(Baton baton, AfterCheck afterCheck, IndexTurns turns) {
        this.baton = baton;
        this.afterCheck = afterCheck;
        this.turns = turns;
    }

    /** Settles one ended command; what the writer's agent should read. */
    List<String> settle(PendingCommands.Pending entry) {
        String sessionId = entry.command.sessionId();
        entry.turns.forEach(turns::end);
        try {
            if (!entry.taken.isEmpty()) {
                baton.locks().editDone(sessionId, entry.taken);
                baton.versions().keep(sessionId, entry.taken);
            }
            return afterCheck.settle(sessionId, entry.command, entry.before,
                    lock -> busy(lock, entry.before.started()), entry.protectedFiles);
        } catch (BatonException e) {
            LOG.info("check after `{}` for session {} skipped: {}", ShellWording.shorten(entry.command.text()), sessionId,
                    e.getMessage());
            return List.of();
        }
    }

    /**
     * A background command settled at the turn's end whose wrapper still runs: it is compared again from now on,
     * until its wrapper reports its end. Empty when it is over or was never tied to a wrapper.
     */
    Optional<PendingCommands.Pending> rest(PendingCommands.Pending entry) {
        if (entry.runId == null || !entry.endReported || !ProcessAncestry.isRunning(entry.wrapper)) {
            return Optional.empty();
        }
        Session session = baton.sessions().find(entry.command.sessionId()).orElse(null);
        if (session == null) {
            return Optional.empty();
        }
        PendingCommands.Pending rest = new PendingCommands.Pending(entry.command, afterCheck.take(session,
                baton.clock().instant(), entry.before.repos(), Map.of(), true), List.of(), List.of(), true);
        rest.runId = entry.runId;
        rest.wrapper = entry.wrapper;
        rest.protectedFiles = entry.protectedFiles;
        return Optional.of(rest);
    }

    /** Whether the holder was at work on its file meanwhile: an edit since the command started, or one in flight. */
    private static boolean busy(FileLock lock, Instant started) {
        return lock.editInFlight() || lock.lastEditAt() != null && lock.lastEditAt().isAfter(started);
    }
}
