package dev.baton.shell;

import dev.baton.Baton;
import dev.baton.git.GitException;
import dev.baton.git.HeldFileState;
import dev.baton.git.IgnoreRules;
import dev.baton.git.TreeWatch;
import dev.baton.git.WorkTreeState;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.session.Session;
import dev.baton.state.BatonException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a shell command changed, found when it ended, compared with the moment it started: in each repository it ran
 * in, the files changed meanwhile (from the tree watch, or where the tree is not watched, git's view before and after,
 * or the files git lists as changed whose change time is after the start); and of every file another session held at
 * the start, wherever it is, its working copy, its staged copy and its committed copy. A changed file no one holds
 * becomes the session's; a change to a file another session holds is recorded (audit entry {@value #CONFLICT_ACTION},
 * event {@code shell.write_conflict}) and told to both sessions, the holder with the command that puts its last kept
 * version back ({@code baton restore FILE}); a changed file the session holds itself is kept as its new version.
 */
final class AfterCheck {

    static final String CONFLICT_ACTION = "shell-write-conflict";

    private static final Logger LOG = LoggerFactory.getLogger(AfterCheck.class);
    /** File times come from a clock the kernel reads coarsely: a change just before the start may read as after it. */
    private static final Duration CHANGE_TIME_SLACK = Duration.ofMillis(50);

    /** What a command's end is compared with. */
    record Before(Instant started, Set<Path> repos, Map<Path, TreeWatch.Mark> marks, Map<Path, WorkTreeState> states,
                  Set<String> heldFiles, HeldFileState held) {

        static final Before NONE = new Before(Instant.EPOCH, Set.of(), Map.of(), Map.of(), Set.of(), HeldFileState.none());

        Before {
            repos = Set.copyOf(repos);
            marks = Map.copyOf(marks);
            states = Map.copyOf(states);
            heldFiles = Set.copyOf(heldFiles);
        }

        boolean compares() {
            return !repos.isEmpty() || !heldFiles.isEmpty();
        }
    }

    private final Baton baton;
    private final ShellSettings settings;
    private final Predicate<String> lockable;
    private final HeldByOthers held;
    private final TreeWatch watch;
    private final HeldFileState.Cache cache = new HeldFileState.Cache();

    /** @param watch the tree watch, or null where none could be made (git's view is asked instead) */
    AfterCheck(Baton baton, ShellSettings settings, Predicate<String> lockable, HeldByOthers held, TreeWatch watch) {
        this.baton = baton;
        this.settings = settings;
        this.lockable = lockable;
        this.held = held;
        this.watch = watch;
    }

    /**
     * The moment a command starts.
     *
     * @param states git's view already taken (to judge a git command), reused where the tree is not watched
     * @param unknown whether a part of the command could not be read: where a tree is not watched, git's view is
     *                taken only then (a command read whole named every file it writes)
     */
    Before take(Session session, Instant started, Set<Path> repos, Map<Path, WorkTreeState> states, boolean unknown) {
        if (!settings.afterCheck()) {
            return Before.NONE;
        }
        Map<Path, TreeWatch.Mark> marks = new LinkedHashMap<>();
        Map<Path, WorkTreeState> views = new LinkedHashMap<>();
        Set<Path> compared = new HashSet<>();
        for (Path repo : repos) {
            Optional<TreeWatch.Mark> mark = watch == null ? Optional.empty() : watch.mark(repo);
            if (mark.isPresent()) {
                marks.put(repo, mark.get());
                compared.add(repo);
            } else if (unknown) {
                try {
                    views.put(repo, states.containsKey(repo) ? states.get(repo) : WorkTreeState.of(repo, settings.gitTimeout()));
                    compared.add(repo);
                } catch (GitException e) {
                    LOG.warn("no check after a command in {}: {}", repo, e.getMessage());
                }
            }
        }
        Set<String> heldFiles = held.all(session);
        return new Before(started, compared, marks, views, heldFiles, HeldFileState.of(heldFiles, cache, settings.gitTimeout()));
    }

    /**
     * Claims what the command changed that no one held, and records and tells a change to another session's file.
     *
     * @param busy whether a holder was at work itself meanwhile (an edit, a command of its own), which the message
     *             then says; the change is recorded all the same, unless the file was read-only for the command
     *             ({@code readOnly}): then the holder made it
     * @return what the writer's agent should read
     */
    List<String> settle(String sessionId, ShellCommand command, Before before, Predicate<FileLock> busy,
                        Set<String> readOnly) {
        if (!before.compares()) {
            return List.of();
        }
        Map<String, String> changed = new TreeMap<>(); // canonical file -> what of it changed
        for (Path repo : before.repos()) {
            for (String file : changedIn(repo, before)) {
                changed.put(file, HeldFileState.Where.WORKING_TREE.shown());
            }
        }
        HeldFileState.of(before.heldFiles(), cache, settings.gitTimeout()).changedSince(before.held())
                .forEach((file, where) -> changed.put(file, String.join(" and ", where.stream().map(HeldFileState.Where::shown).toList())));
        if (changed.isEmpty()) {
            return List.of();
        }
        Session session = baton.sessions().get(sessionId);
        List<String> free = new ArrayList<>();
        List<String> own = new ArrayList<>();
        Map<String, FileLock> othersHeld = new TreeMap<>();
        baton.ledger().read(world -> {
            changed.keySet().forEach(file -> {
                Optional<FileLock> lock = world.find(LockRows.FILES, file);
                if (lock.isEmpty()) {
                    if (lockable.test(file) && Files.exists(Path.of(file), LinkOption.NOFOLLOW_LINKS)) {
                        free.add(file);
                    }
                } else if (lock.get().sessionId().equals(sessionId)) {
                    own.add(file);
                } else if (!HeldByOthers.sharedWith(session, lock.get().sessionId())
                        && !(readOnly.contains(file) && busy.test(lock.get()))) {
                    othersHeld.put(file, lock.get());
                }
            });
            return null;
        });
        if (!free.isEmpty()) {
            baton.locks().acquire(new AcquireRequest(sessionId, free, Duration.ZERO, false, false));
            own.addAll(free);
        }
        baton.versions().keep(sessionId, own); // the end of the holder's own command is the end of its edit
        List<String> lines = new ArrayList<>();
        String shownCommand = ShellWording.shorten(command.text());
        othersHeld.forEach((file, lock) -> {
            String holder = lock.sessionId();
            String where = changed.get(file);
            // Only the working copy can be put back; a staged or committed copy is git's to undo.
            boolean workingCopy = where.contains(HeldFileState.Where.WORKING_TREE.shown());
            boolean restorable = baton.ledger().write(tx -> {
                tx.audit(CONFLICT_ACTION, sessionId, file, shownCommand, holder);
                return workingCopy && baton.versions().changedBehind(tx, file, holder, sessionId).isPresent();
            });
            Path holderCwd = baton.sessions().find(holder).map(Session::cwd).map(Path::of).orElse(null);
            try {
                baton.messages().send(sessionId, holder,
                        ShellWording.toHolder(command.text(), file, sessionId, where, holderCwd, restorable));
            } catch (BatonException e) {
                LOG.info("could not tell session {} about the change to {}: {}", holder, file, e.getMessage());
            }
            lines.add(ShellWording.toWriter(command.text(), file, holder, where, command.cwd(), busy.test(lock)));
        });
        return lines;
    }

    /** The lockable files of a repository the command changed (canonical paths). */
    private Set<String> changedIn(Path repo, Before before) {
        Set<Path> paths;
        TreeWatch.Mark mark = before.marks().get(repo);
        Optional<Set<Path>> watched = mark == null ? Optional.empty() : watch.changedSince(mark);
        try {
            if (watched.isPresent()) {
                paths = withoutIgnored(repo, watched.get());
            } else if (before.states().containsKey(repo)) {
                paths = WorkTreeState.of(repo, settings.gitTimeout()).changedSince(before.states().get(repo));
            } else {
                paths = changedAfter(WorkTreeState.of(repo, settings.gitTimeout()), before.started());
            }
        } catch (GitException e) {
            LOG.warn("no check after a command in {}: {}", repo, e.getMessage());
            return Set.of();
        }
        Set<String> files = new HashSet<>();
        for (Path path : paths) {
            if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            String canonical = HeldByOthers.canonical(path);
            if (canonical != null && lockable.test(canonical)) {
                files.add(canonical);
            }
        }
        return files;
    }

    /** Drops what git ignores (build output, caches): git's own view never lists those as changed either. */
    private Set<Path> withoutIgnored(Path repo, Set<Path> paths) throws GitException {
        Set<Path> candidates = new HashSet<>();
        for (Path path : paths) {
            if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS) && path.startsWith(repo) && !path.equals(repo)) {
                candidates.add(path);
            }
        }
        candidates.removeAll(IgnoreRules.ignored(repo, candidates, settings.gitTimeout()));
        return candidates;
    }

    /**
     * Where nothing was compared at the start (the watch lost track): the files git lists as changed whose change
     * time (set by the kernel on every write, rename or removal in their directory) is after the start.
     */
    private static Set<Path> changedAfter(WorkTreeState state, Instant started) {
        Instant since = started.minus(CHANGE_TIME_SLACK);
        Set<Path> changed = new HashSet<>();
        for (Path path : state.dirty()) {
            Path probe = Files.exists(path, LinkOption.NOFOLLOW_LINKS) ? path : path.getParent();
            try {
                FileTime changeTime = (FileTime) Files.getAttribute(probe, "unix:ctime", LinkOption.NOFOLLOW_LINKS);
                if (!changeTime.toInstant().isBefore(since)) {
                    changed.add(path);
                }
            } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                changed.add(path);
            }
        }
        return changed;
    }
}
