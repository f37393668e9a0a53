package dev.baton.http;

import dev.baton.Baton;
import dev.baton.lock.FileLock;
import dev.baton.lock.Holder;
import dev.baton.lock.LockRows;
import dev.baton.lock.NamedLock;
import dev.baton.session.Plan;
import dev.baton.session.Session;
import dev.baton.naming.SessionName;
import dev.baton.state.World;
import java.time.Instant;

/** The JSON shapes of sessions, locks and named locks as clients (CLI, dashboard, scripts) see them. */
public final class Views {

    private Views() {
    }

    /** {@code label}: the session as a person reads it (see {@link SessionName}); clients show it, not the id. */
    public record SessionView(String id, String label, String agent, Long pid, Instant pidStart, String alive, String host, String cwd,
                              String repoRoot, Instant startedAt, Instant lastHeartbeat, String name, String parentId,
                              Plan plan, int locks) {
    }

    /**
     * {@code uncommitted}: whether the file carries changes git has not committed (its holder's work, which stays in
     * the file for the next holder); only when asked for ({@code changes=true}), and absent where nobody can say.
     */
    public record LockView(String file, Holder holder, Instant since, Instant lastEdit, boolean editInFlight,
                           CopyView copy, Boolean uncommitted) {
    }

    /** Where a held file sits among the copies of its repository (null for a file of no repository). */
    public record CopyView(String repository, String path, String worktree, String branch) {
    }

    public record NamedLockView(String name, long pid, Instant pidStart, String alive, String host, Instant since,
                                String purpose) {
    }

    public static SessionView session(Baton baton, World world, Session s) {
        return new SessionView(s.id(), s.label(), s.agent().wireName(), s.process() == null ? null : s.process().pid(),
                s.process() == null ? null : s.process().startedAt(), baton.liveness().processOf(s).wireName(),
                s.host(), s.cwd(), s.repoRoot(), s.startedAt(), s.lastHeartbeat(), s.name(), s.parentId(), s.plan(),
                world.keysIn(LockRows.FILES, s.id()).size());
    }

    public static LockView lock(Baton baton, World world, FileLock lock) {
        return lock(baton, world, lock, null);
    }

    public static LockView lock(Baton baton, World world, FileLock lock, Boolean uncommitted) {
        return new LockView(lock.file(), baton.locks().holderView(world, lock), lock.acquiredAt(), lock.lastEditAt(),
                lock.editInFlight(), baton.locks().copyOf(lock.file())
                .map(copy -> new CopyView(copy.repository(), copy.path(), copy.worktree(), copy.branch())).orElse(null),
                uncommitted);
    }

    public static NamedLockView named(Baton baton, NamedLock lock) {
        return new NamedLockView(lock.name(), lock.holder().pid(), lock.holder().startedAt(),
                baton.namedLocks().aliveness(lock), lock.host(), lock.acquiredAt(), lock.purpose());
    }
}
