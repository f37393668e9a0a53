package dev.baton.shell;

import dev.baton.Baton;
import dev.baton.lock.CanonicalPath;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.BatonException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.FileSystems;
import java.nio.file.PathMatcher;
import java.util.function.Predicate;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Which files, of some a command touches, other live sessions hold: the question every shell check asks. */
final class HeldByOthers {

    private final Baton baton;

    HeldByOthers(Baton baton) {
        this.baton = baton;
    }

    /** Which of {@code files} another live session holds (a stale holder is freed on the way, as an acquire does). */
    List<BlockedWrite> among(Session session, Set<String> files, String part) {
        if (files.isEmpty()) {
            return List.of();
        }
        return baton.ledger().write(tx -> {
            List<BlockedWrite> held = new ArrayList<>();
            for (String file : files) {
                Optional<FileLock> lock = tx.world().find(LockRows.FILES, file);
                if (lock.isEmpty() || sharedWith(session, lock.get().sessionId())) {
                    continue;
                }
                Optional<Session> holder = tx.world().find(SessionRows.SESSIONS, lock.get().sessionId());
                if (holder.isPresent() && baton.locks().freeIfStale(tx, holder.get())) {
                    continue;
                }
                held.add(new BlockedWrite(file, baton.locks().holderView(tx.world(), lock.get()), part));
            }
            return held;
        });
    }

    /**
     * Files another session holds that the targets reach: under a directory written anywhere, matched by a glob
     * (or under what it matches, for a recursive one). A glob that matches no held file reaches none.
     */
    List<BlockedWrite> under(Session session, List<WriteTarget> targets) {
        List<BlockedWrite> blocked = new ArrayList<>();
        for (WriteTarget target : targets) {
            String dir = canonical(target.path());
            if (dir == null) {
                continue;
            }
            Predicate<Path> reaches = reach(target, dir);
            Set<String> inside = baton.ledger().read(world -> world.rows(LockRows.FILES).stream().map(FileLock::file)
                    .filter(file -> Path.of(file).startsWith(dir) && reaches.test(Path.of(file)))
                    .collect(Collectors.toCollection(TreeSet::new)));
            blocked.addAll(among(session, inside, target.part()));
        }
        return blocked;
    }

    /** Whether a held file (under the target's canonical directory {@code dir}) is reached by the target. */
    private static Predicate<Path> reach(WriteTarget target, String dir) {
        if (target.glob() == null) {
            return file -> true;
        }
        // The pattern below its fixed directory, applied below that directory's canonical path.
        String below = target.glob().substring(Math.min(target.glob().length(), target.path().toString().length()));
        PathMatcher matcher;
        try {
            matcher = FileSystems.getDefault().getPathMatcher("glob:" + escapeDir(dir) + below);
        } catch (IllegalArgumentException e) {
            return file -> true; // a pattern Java cannot read: everything under the directory, as before
        }
        return file -> {
            for (Path at = file; at != null && at.startsWith(dir); at = at.getParent()) {
                if (matcher.matches(at)) {
                    return at.equals(file) || target.tree();
                }
            }
            return false;
        };
    }

    /** A literal directory inside a glob: its glob characters are escaped. */
    private static String escapeDir(String dir) {
        return dir.replaceAll("([*?\\[\\]{}\\\\])", "\\\\$1");
    }

    /** Every file another session holds now (stale holders included: only a snapshot is taken of them). */
    Set<String> all(Session session) {
        return baton.ledger().read(world -> world.rows(LockRows.FILES).stream()
                .filter(lock -> !sharedWith(session, lock.sessionId()))
                .map(FileLock::file).collect(Collectors.toCollection(TreeSet::new)));
    }

    /** Every file any session holds now. */
    Set<String> all() {
        return baton.ledger().read(world -> world.rows(LockRows.FILES).stream().map(FileLock::file)
                .collect(Collectors.toCollection(TreeSet::new)));
    }

    /** The session's own files. */
    Set<String> own(Session session) {
        return baton.ledger().read(world -> new TreeSet<>(world.keysIn(LockRows.FILES, session.id())));
    }

    /** A subagent may write what its parent holds (as for edits); siblings and strangers may not. */
    static boolean sharedWith(Session session, String holderId) {
        return holderId.equals(session.id()) || holderId.equals(session.parentId());
    }

    static String canonical(Path path) {
        try {
            return CanonicalPath.of(path.toString(), null);
        } catch (BatonException e) {
            return null;
        }
    }
}
