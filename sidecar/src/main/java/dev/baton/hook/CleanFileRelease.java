package dev.baton.hook;

import dev.baton.git.GitException;
import dev.baton.git.GitStatus;
import dev.baton.git.RepoRoot;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockTable;
import dev.baton.lock.ReleaseOutcome;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.Session;
import dev.baton.session.SessionRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The advisory release when an edit is over (an agent's turn ended, a subagent ended, a tool failed or was
 * refused): the files that are clean against git (no staged or unstaged change, not untracked) and have no
 * edit in flight go back to everyone (in a team, only once their last commit reached the shared remote); dirty
 * files stay held until the session ends. Git runs outside the ledger; {@link LockTable#releaseIfUnchanged} then frees
 * only locks that no edit touched since they were observed, so no edit slips between check and release. Git is asked
 * about the observed files only, so a turn's end costs what the session holds, not what the repository holds: a
 * change to a file the session does not hold is not this check's to find (the check after a shell command claims it).
 */
final class CleanFileRelease {

    private static final Logger LOG = LoggerFactory.getLogger(CleanFileRelease.class);

    private final LockTable locks;
    private final SessionRegistry sessions;
    private final GitStatus git;

    CleanFileRelease(LockTable locks, SessionRegistry sessions, GitStatus git) {
        this.locks = locks;
        this.sessions = sessions;
        this.git = git;
    }

    /**
     * The end of an agent's turn: no tool call of the session or of its subagents is running, so every edit
     * still marked in flight is over (its PostToolUse never came: refused, failed, or a tool that sends none);
     * each subagent hands its files to the session; then the session's clean files are released.
     */
    ReleaseOutcome turnEnded(String sessionId) {
        List<String> ids = new ArrayList<>();
        ids.add(sessionId);
        subagentsOf(sessionId).forEach(sub -> ids.add(sub.id()));
        locks.editsEnded(ids, null);
        for (String sub : ids.subList(1, ids.size())) {
            locks.handBack(sub);
        }
        return releaseClean(sessionId, locks.locksOf(sessionId));
    }

    /** A subagent ended: its files pass to its parent, which keeps the dirty ones and lets the clean ones go. */
    ReleaseOutcome subagentEnded(String subagentId, String parentId) {
        locks.editsEnded(List.of(subagentId), null);
        return releaseClean(parentId, locks.handBack(subagentId));
    }

    /** A tool call of the session failed or was refused: its edit is over, and a file it left clean is released. */
    ReleaseOutcome editFailed(String sessionId, Collection<String> files) {
        locks.editsEnded(List.of(sessionId), files);
        List<FileLock> observed = locks.locksOf(sessionId).stream().filter(lock -> files.contains(lock.file())).toList();
        return releaseClean(sessionId, observed);
    }

    /**
     * Releases those of the observed locks whose files are clean against git and have no edit in flight; the
     * rest stay held.
     */
    private ReleaseOutcome releaseClean(String sessionId, List<FileLock> observed) {
        if (observed.isEmpty()) {
            return new ReleaseOutcome(List.of(), List.of());
        }
        Map<Path, List<FileLock>> byRepo = new LinkedHashMap<>();
        List<String> kept = new ArrayList<>();
        for (FileLock lock : observed) {
            Optional<Path> root = lock.editInFlight() ? Optional.empty() : RepoRoot.of(Path.of(lock.file()));
            if (root.isPresent()) {
                byRepo.computeIfAbsent(root.get(), r -> new ArrayList<>()).add(lock);
            } else {
                kept.add(lock.file()); // mid-edit, or outside any repository: git cannot vouch for it
            }
        }
        List<FileLock> clean = new ArrayList<>();
        byRepo.forEach((root, repoLocks) -> {
            try {
                Set<Path> changed = git.changedAmong(root, repoLocks.stream().map(lock -> Path.of(lock.file())).toList());
                for (FileLock lock : repoLocks) {
                    if (changed.contains(Path.of(lock.file())) || !locks.mayReleaseWhenClean(lock.file())) {
                        kept.add(lock.file());
                    } else {
                        clean.add(lock);
                    }
                }
            } catch (GitException e) {
                LOG.warn("keeping {} lock(s) of session {}: {}", repoLocks.size(), sessionId, e.getMessage());
                repoLocks.forEach(lock -> kept.add(lock.file()));
            }
        });
        ReleaseOutcome outcome = locks.releaseIfUnchanged(sessionId, clean, ReleaseReason.AUTO_CLEAN);
        kept.addAll(outcome.notHeld());
        return new ReleaseOutcome(outcome.released(), kept);
    }

    private List<Session> subagentsOf(String sessionId) {
        return sessions.list().stream().filter(s -> sessionId.equals(s.parentId())).toList();
    }
}
