package dev.baton.shell;

import dev.baton.Baton;
import dev.baton.git.GitException;
import dev.baton.git.RepoRoot;
import dev.baton.git.WorkTreeState;
import dev.baton.lock.AcquireOutcome;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.CanonicalPath;
import dev.baton.lock.FileLock;
import dev.baton.lock.HeldMessage;
import dev.baton.lock.Holder;
import dev.baton.lock.LockResult;
import dev.baton.lock.NamedLockOutcome;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import dev.baton.state.BatonException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Function;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards an agent's shell commands. Before one runs: the files it names are taken as the session's edits or the
 * command is denied when another live session holds one; git commands that would discard, stage or commit another
 * session's held work are denied; index-writing git commands of different sessions in one repository take turns.
 * After it ran: git's view of the tree before and after tells what it changed; files no one held become the
 * session's, and a change to another session's file is recorded and told to both.
 */
public final class ShellGuard {

    /** The audit action and event of a command that changed a file another session held. */
    public static final String CONFLICT_ACTION = "shell-write-conflict";

    private static final Logger LOG = LoggerFactory.getLogger(ShellGuard.class);
    private static final int SHOWN_COMMAND_LENGTH = 200;

    private final Baton baton;
    private final ShellSettings settings;
    private final Predicate<String> lockable;
    private final ShellAnalyzer analyzer;
    private final String host;
    private final Map<String, Deque<Pending>> pending = new ConcurrentHashMap<>();

    /**
     * @param lockable whether Baton locks a canonical file (the same rule as for edit tools)
     * @param patchPaths the files an apply_patch text names
     */
    public ShellGuard(Baton baton, ShellSettings settings, Predicate<String> lockable,
                      Function<String, List<String>> patchPaths, String host) {
        this.baton = baton;
        this.settings = settings;
        this.lockable = lockable;
        this.analyzer = new ShellAnalyzer(ShellAnalyzer.FileView.REAL, patchPaths);
        this.host = host;
    }

    /** The answer before a command: go ahead (perhaps with something to tell the agent) or not. */
    public sealed interface Decision permits Proceed, Deny {
    }

    public record Proceed(List<String> notes) implements Decision {
    }

    public record Deny(String reason) implements Decision {
    }

    private static final Proceed SILENT = new Proceed(List.of());

    /** The answer before {@code command} runs in {@code cwd} (absolute, or null), a tool call with no background. */
    public Decision before(String sessionId, String toolUseId, String command, Path cwd) {
        return before(new ShellCommand(sessionId, toolUseId, command, cwd, false, false));
    }

    public Decision before(ShellCommand command) {
        if (!settings.enabled() || command.text() == null || command.text().isBlank()) {
            return SILENT;
        }
        finishUnmatched(command.sessionId());
        if (command.opaque()) {
            // Nothing is known before it ran: everything is checked after.
            return guard(command, new ShellAnalysis(List.of(), List.of(), List.of(command.text()), List.of()));
        }
        ShellAnalysis analysis = analyzer.analyse(command.text(), command.cwd());
        List<String> denied = settings.denied(analysis.commands());
        if (denied != null) {
            return new Deny("Baton denies `" + String.join(" ", denied) + "`: it is on this machine's deny list"
                    + " (BATON_SHELL_DENY). Ask the person supervising the agents if it must run.");
        }
        if (analysis.readOnly() || settings.allowed(analysis.commands())) {
            remember(command, baton.clock().instant(), Map.of(), List.of(), List.of());
            return SILENT;
        }
        return guard(command, analysis);
    }

    /**
     * Keeps the announced command until it ends, so that its wrapper finds it: what to check afterwards (perhaps
     * nothing), and its text, which decides how the wrapper runs it.
     */
    private void remember(ShellCommand command, Instant started, Map<Path, WorkTreeState> states, List<String> taken,
                          List<IndexLock> indexLocks) {
        pending.computeIfAbsent(command.sessionId(), id -> new ConcurrentLinkedDeque<>())
                .add(new Pending(command.toolUseId(), command.text(), started, Map.copyOf(states), taken,
                        indexLocks, command.background()));
    }

    private Decision guard(ShellCommand announced, ShellAnalysis analysis) {
        String sessionId = announced.sessionId();
        String toolUseId = announced.toolUseId();
        String command = announced.text();
        Path cwd = announced.cwd();
        Session session = baton.sessions().get(sessionId);
        Instant started = baton.clock().instant();
        Map<Path, WorkTreeState> states = new LinkedHashMap<>();
        Set<Path> repos = new LinkedHashSet<>();
        repoOf(cwd).ifPresent(repos::add);
        analysis.git().forEach(git -> repoOf(git.workDir() != null ? git.workDir() : cwd).ifPresent(repos::add));

        // 1. files and trees named on the command line
        SortedFiles files = new SortedFiles();
        for (WriteTarget target : analysis.writes()) {
            String canonical = canonical(target.path());
            if (canonical == null) {
                continue;
            }
            if (target.tree()) {
                files.trees.put(canonical, target.part());
            } else if (lockable.test(canonical)) {
                files.files.putIfAbsent(canonical, target.part());
            }
        }
        List<Blocked> blocked = new ArrayList<>(heldUnder(session, files.trees));

        // 2. git commands judged against the repository's state
        List<String> gitReasons = new ArrayList<>();
        for (GitCommand git : analysis.git()) {
            Optional<Path> repo = repoOf(git.workDir() != null ? git.workDir() : cwd);
            if (repo.isEmpty() || git.effect() == GitCommand.Effect.OTHER) {
                continue;
            }
            try {
                WorkTreeState state = stateOf(repo.get(), states);
                String reason = judge(session, git, state, cwd);
                if (reason != null) {
                    gitReasons.add(reason);
                }
            } catch (GitException e) {
                LOG.warn("cannot judge `{}` for session {}: {}", git.part(), sessionId, e.getMessage());
            }
        }
        if (!blocked.isEmpty() || !gitReasons.isEmpty()) {
            return new Deny(denial(blocked, gitReasons, cwd));
        }

        // 3. index writers of different sessions take turns, per repository
        List<IndexLock> indexLocks = new ArrayList<>();
        for (GitCommand git : analysis.git()) {
            Optional<Path> repo = repoOf(git.workDir() != null ? git.workDir() : cwd);
            if (!git.indexWrite() || repo.isEmpty() || session.process() == null
                    || indexLocks.stream().anyMatch(lock -> lock.repo.equals(repo.get()))) {
                continue;
            }
            String name = indexLockName(repo.get());
            NamedLockOutcome outcome = baton.namedLocks().acquire(name, session.process(), host,
                    "git index: " + shorten(git.part()), settings.indexWait());
            if (!outcome.acquired()) {
                indexLocks.forEach(this::release);
                return new Deny("Baton held back `" + shorten(git.part()) + "`: another session's git command is"
                        + " writing the index of " + repo.get() + " (" + outcome.lock().purpose() + ", pid "
                        + outcome.lock().holder().pid() + ", " + outcome.holderAlive() + "). Run it again in a moment.");
            }
            indexLocks.add(new IndexLock(repo.get(), name, session.process()));
        }

        // 4. the named files become this session's edits, all or none
        List<String> taken = new ArrayList<>();
        if (!files.files.isEmpty()) {
            AcquireOutcome outcome = baton.locks().acquire(new AcquireRequest(sessionId,
                    List.copyOf(files.files.keySet()), Duration.ZERO, true, true));
            if (!outcome.allAcquired()) {
                indexLocks.forEach(this::release);
                List<Blocked> held = outcome.blocked().stream().filter(result -> result.holder() != null)
                        .map(result -> new Blocked(result.file(), result.holder(), files.files.get(result.file())))
                        .toList();
                return new Deny(denial(held, List.of(), cwd));
            }
            outcome.results().stream().map(LockResult::file).forEach(taken::add);
        }

        // 5. remember git's view for the check after the command. A command whose every write was named is
        // fully known (its files were just taken); only one with parts Baton cannot read is worth two git runs.
        if (settings.afterCheck() && !analysis.unknown().isEmpty()) {
            for (Path repo : repos) {
                try {
                    stateOf(repo, states);
                } catch (GitException e) {
                    LOG.warn("no check after `{}` in {}: {}", shorten(command), repo, e.getMessage());
                }
            }
        } else {
            states.clear();
        }
        remember(announced, started, states, taken, indexLocks);
        return SILENT;
    }

    /**
     * After the command (PostToolUse): what it changed that the session did not hold becomes the session's, or is
     * reported when another session held it. Returns what the writer's agent should read.
     */
    public List<String> after(String sessionId, String toolUseId) {
        Deque<Pending> queue = pending.get(sessionId);
        if (queue == null) {
            return List.of();
        }
        Pending match = null;
        for (Pending candidate : queue) {
            if (toolUseId == null || toolUseId.equals(candidate.toolUseId)) {
                match = candidate;
                break;
            }
        }
        if (match == null || match.background || !queue.remove(match)) {
            // A background command has only started: it is checked when its wrapper reports its end, or at the turn's end.
            return List.of();
        }
        return finish(sessionId, match);
    }

    /**
     * What the wrapper of one command learns at its start: the run's id, whether to report the command's end, and
     * the command as the agent announced it (null when the run matched none).
     */
    public record Run(String id, boolean reportEnd, String announced) {
    }

    /**
     * The wrapper of a command of one of {@code sessions} (the caller's own, from the kernel's view of it) is about
     * to run it. The announced command it runs is found by the agent's tool call id, or else by its text inside
     * what the wrapper runs; when there is one and it is still to be checked, the wrapper reports its end.
     */
    public Run runStarted(Set<String> sessions, String callId, String command) {
        String id = java.util.UUID.randomUUID().toString();
        for (String sessionId : sessions) {
            Deque<Pending> queue = pending.get(sessionId);
            if (queue == null) {
                continue;
            }
            for (Pending candidate : queue) {
                if (candidate.runId == null && runs(candidate, callId, command)) {
                    candidate.runId = id;
                    return new Run(id, candidate.checksAfter(), candidate.command);
                }
            }
        }
        return new Run(id, false, null);
    }

    private static boolean runs(Pending candidate, String callId, String command) {
        if (callId != null && !callId.isBlank()) {
            return callId.equals(candidate.toolUseId);
        }
        // Claude Code runs the command inside eval '…', with each ' written '"'"'.
        return command != null && (command.contains(candidate.command)
                || command.contains(candidate.command.replace("'", "'\"'\"'")));
    }

    /** The wrapper reports that the command of run {@code runId} ended: it is checked now. */
    public List<String> runEnded(String runId) {
        for (Map.Entry<String, Deque<Pending>> entry : pending.entrySet()) {
            for (Pending candidate : entry.getValue()) {
                if (runId.equals(candidate.runId) && entry.getValue().remove(candidate)) {
                    return finish(entry.getKey(), candidate);
                }
            }
        }
        return List.of();
    }

    /** The turn ended (or the session did): every command still pending has ended too. */
    public List<String> turnEnded(String sessionId) {
        List<String> lines = new ArrayList<>();
        Deque<Pending> queue = pending.remove(sessionId);
        if (queue != null) {
            for (Pending entry : queue) {
                lines.addAll(finish(sessionId, entry));
            }
        }
        for (String other : List.copyOf(pending.keySet())) {
            if (other.startsWith(sessionId + "/")) {
                lines.addAll(turnEnded(other));
            }
        }
        return lines;
    }

    /** Commands the agent cannot match to their end (no tool call id) end when its next command starts. */
    private void finishUnmatched(String sessionId) {
        Deque<Pending> queue = pending.get(sessionId);
        if (queue == null) {
            return;
        }
        for (Pending entry : List.copyOf(queue)) {
            if (entry.toolUseId == null && queue.remove(entry)) {
                finish(sessionId, entry);
            }
        }
    }

    private List<String> finish(String sessionId, Pending entry) {
        entry.indexLocks.forEach(this::release);
        List<String> lines = new ArrayList<>();
        try {
            if (!entry.taken.isEmpty()) {
                baton.locks().editDone(sessionId, entry.taken);
            }
            for (Map.Entry<Path, WorkTreeState> before : entry.states.entrySet()) {
                WorkTreeState after;
                try {
                    after = WorkTreeState.of(before.getKey(), settings.gitTimeout());
                } catch (GitException e) {
                    LOG.warn("no check after `{}`: {}", shorten(entry.command), e.getMessage());
                    continue;
                }
                lines.addAll(settle(sessionId, entry, after.changedSince(before.getValue())));
            }
        } catch (BatonException e) {
            LOG.info("check after `{}` for session {} skipped: {}", shorten(entry.command), sessionId, e.getMessage());
        }
        return lines;
    }

    /** Claims what no one held; records and tells a change to a file another session held. */
    private List<String> settle(String sessionId, Pending entry, Set<Path> changed) {
        Set<String> files = new TreeSet<>();
        for (Path path : changed) {
            String canonical = canonical(path);
            if (canonical != null && lockable.test(canonical)) {
                files.add(canonical);
            }
        }
        if (files.isEmpty()) {
            return List.of();
        }
        Session session = baton.sessions().get(sessionId);
        List<String> free = new ArrayList<>();
        Map<String, FileLock> othersHeld = new TreeMap<>();
        baton.ledger().read(world -> {
            for (String file : files) {
                Optional<FileLock> lock = world.lock(file);
                if (lock.isEmpty()) {
                    free.add(file);
                } else if (!sharedWith(session, lock.get().sessionId())
                        && !editedSince(lock.get(), entry.started) && !running(lock.get().sessionId())) {
                    othersHeld.put(file, lock.get());
                }
            }
            return null;
        });
        if (!free.isEmpty()) {
            baton.locks().acquire(new AcquireRequest(sessionId, free, Duration.ZERO, false, false));
        }
        List<String> lines = new ArrayList<>();
        String shownCommand = shorten(entry.command);
        othersHeld.forEach((file, lock) -> {
            String holder = lock.sessionId();
            baton.ledger().write(tx -> {
                tx.audit(CONFLICT_ACTION, sessionId, file, shownCommand, holder);
                return null;
            });
            try {
                baton.messages().send(sessionId, holder, "Baton: your file " + file + " was changed by session "
                        + HeldMessage.shortId(sessionId) + "'s command `" + shownCommand + "`. Check it before you"
                        + " edit it again.");
            } catch (BatonException e) {
                LOG.info("could not tell session {} about the change to {}: {}", holder, file, e.getMessage());
            }
            lines.add("Baton: your command `" + shownCommand + "` changed " + file + ", which session "
                    + HeldMessage.shortId(holder) + " holds; it has been told. Do not change that file again without"
                    + " asking for it (`baton negotiate " + file + " --reason \"…\"`).");
        });
        return lines;
    }

    /** The holder's own command still running may have made the change; its own check will see it. */
    private boolean running(String sessionId) {
        Deque<Pending> queue = pending.get(sessionId);
        return queue != null && !queue.isEmpty();
    }

    /** An edit by the holder itself since the command started explains the change better than the command. */
    private static boolean editedSince(FileLock lock, Instant started) {
        return lock.editInFlight() || lock.lastEditAt() != null && lock.lastEditAt().isAfter(started);
    }

    /** Why a git command must not run now, or null when it may. */
    private String judge(Session session, GitCommand git, WorkTreeState state, Path cwd) throws GitException {
        Set<Path> touched = new LinkedHashSet<>();
        switch (git.effect()) {
            case DISCARD -> {
                touched.addAll(state.staged());
                touched.addAll(state.unstaged());
                if (git.untracked()) {
                    touched.addAll(state.untracked());
                }
            }
            case CLEAN -> touched.addAll(state.untracked());
            case STAGE -> touched.addAll(state.dirty());
            case COMMIT -> touched.addAll(state.staged());
            case COMMIT_ALL -> {
                touched.addAll(state.staged());
                touched.addAll(state.unstaged());
            }
            case SWITCH -> touched.addAll(WorkTreeState.filesBetween(state.root(), "HEAD", git.ref(), settings.gitTimeout()));
            case OTHER -> {
            }
        }
        if (git.effect() != GitCommand.Effect.COMMIT && !git.paths().isEmpty()) {
            touched.removeIf(path -> git.paths().stream().noneMatch(path::startsWith));
        }
        Map<String, Path> byCanonical = new TreeMap<>();
        touched.forEach(path -> Optional.ofNullable(canonical(path)).ifPresent(c -> byCanonical.put(c, path)));
        List<Blocked> held = othersHolding(session, byCanonical.keySet(), git.part());
        if (held.isEmpty()) {
            return null;
        }
        Path base = cwd != null ? cwd : state.root();
        String heldText = held.stream().map(b -> shown(b.file, base) + " (" + holderText(b.holder) + ")")
                .collect(Collectors.joining(", "));
        String what = switch (git.effect()) {
            case DISCARD -> "would throw away uncommitted changes to files other sessions hold";
            case CLEAN -> "would delete untracked files other sessions hold";
            case STAGE -> "would stage files other sessions hold";
            case COMMIT -> "would commit files other sessions staged and hold";
            case COMMIT_ALL -> "would commit files other sessions hold";
            case SWITCH -> "would rewrite files other sessions hold";
            case OTHER -> "";
        };
        StringBuilder reason = new StringBuilder("`").append(shorten(git.part())).append("` ").append(what)
                .append(": ").append(heldText).append('.');
        if (git.effect() == GitCommand.Effect.STAGE || git.effect() == GitCommand.Effect.COMMIT
                || git.effect() == GitCommand.Effect.COMMIT_ALL) {
            Set<Path> heldPaths = held.stream().map(b -> byCanonical.get(b.file)).collect(Collectors.toSet());
            List<String> own = ownDirty(session, state).stream().filter(path -> !heldPaths.contains(path))
                    .map(path -> quoted(shown(path.toString(), base))).toList();
            if (own.isEmpty()) {
                reason.append(" None of the changed files is yours to commit.");
            } else if (git.effect() == GitCommand.Effect.STAGE) {
                reason.append(" Stage only your own files instead: `git add ").append(String.join(" ", own)).append('`');
            } else {
                reason.append(" Commit only your own files instead: `git commit -m \"…\" -- ")
                        .append(String.join(" ", own)).append('`');
            }
        } else {
            reason.append(" Name your own files instead (e.g. `git restore -- FILE`), or ask the holders to commit first.");
        }
        return reason.toString();
    }

    /** The dirty files of the repository that this session holds. */
    private List<Path> ownDirty(Session session, WorkTreeState state) {
        Set<String> mine = baton.ledger().read(world -> new TreeSet<>(world.filesOf(session.id())));
        return state.dirty().stream().filter(path -> mine.contains(canonical(path))).sorted().toList();
    }

    /** Files under the trees that another live session holds. */
    private List<Blocked> heldUnder(Session session, Map<String, String> trees) {
        if (trees.isEmpty()) {
            return List.of();
        }
        List<Blocked> blocked = new ArrayList<>();
        trees.forEach((tree, part) -> {
            Set<String> inside = baton.ledger().read(world -> world.locks().stream().map(FileLock::file)
                    .filter(file -> Path.of(file).startsWith(tree)).collect(Collectors.toCollection(TreeSet::new)));
            blocked.addAll(othersHolding(session, inside, part));
        });
        return blocked;
    }

    /** Which of the files another live session holds (a stale holder is freed on the way, as an acquire does). */
    private List<Blocked> othersHolding(Session session, Set<String> files, String part) {
        if (files.isEmpty()) {
            return List.of();
        }
        return baton.ledger().write(tx -> {
            List<Blocked> held = new ArrayList<>();
            for (String file : files) {
                Optional<FileLock> lock = tx.world().lock(file);
                if (lock.isEmpty() || sharedWith(session, lock.get().sessionId())) {
                    continue;
                }
                Optional<Session> holder = tx.world().session(lock.get().sessionId());
                if (holder.isPresent() && baton.locks().freeIfStale(tx, holder.get())) {
                    continue;
                }
                held.add(new Blocked(file, baton.locks().holderView(tx.world(), lock.get()), part));
            }
            return held;
        });
    }

    /** A subagent may write what its parent holds (as for edits); siblings and strangers may not. */
    private static boolean sharedWith(Session session, String holderId) {
        return holderId.equals(session.id()) || holderId.equals(session.parentId());
    }

    private String denial(List<Blocked> blocked, List<String> gitReasons, Path cwd) {
        StringBuilder text = new StringBuilder("Baton blocked this command: ");
        Instant now = baton.clock().instant();
        Map<String, List<Blocked>> byPart = blocked.stream()
                .collect(Collectors.groupingBy(b -> b.part, LinkedHashMap::new, Collectors.toList()));
        List<String> sentences = new ArrayList<>();
        byPart.forEach((part, list) -> sentences.add("`" + shorten(part) + "` writes "
                + list.stream().map(b -> HeldMessage.of(shown(b.file, cwd), b.holder, now)).collect(Collectors.joining("; "))));
        sentences.addAll(gitReasons);
        text.append(String.join(". ", sentences));
        if (!text.toString().endsWith(".") && !text.toString().endsWith("`")) {
            text.append('.');
        }
        if (!blocked.isEmpty()) {
            text.append(" Nothing of it ran and no file was locked for it.");
        }
        return text.toString();
    }

    private static String holderText(Holder holder) {
        return "held by " + (holder.agent() == null ? "session " : holder.agent() + " session ")
                + HeldMessage.shortId(holder.session()) + (holder.pid() == null ? "" : ", pid " + holder.pid());
    }

    private static String shown(String file, Path base) {
        Path path = Path.of(file);
        return base != null && path.startsWith(base) && !path.equals(base) ? base.relativize(path).toString() : file;
    }

    private static String quoted(String file) {
        return file.matches("[A-Za-z0-9_./@+-]+") ? file : "'" + file.replace("'", "'\\''") + "'";
    }

    private WorkTreeState stateOf(Path repo, Map<Path, WorkTreeState> states) throws GitException {
        WorkTreeState state = states.get(repo);
        if (state == null) {
            state = WorkTreeState.of(repo, settings.gitTimeout());
            states.put(repo, state);
        }
        return state;
    }

    private static Optional<Path> repoOf(Path dir) {
        return dir == null ? Optional.empty() : RepoRoot.of(dir);
    }

    private static String canonical(Path path) {
        try {
            return CanonicalPath.of(path.toString(), null);
        } catch (BatonException e) {
            return null;
        }
    }

    static String indexLockName(Path repo) {
        String name = "git-index:" + repo;
        return name.length() <= 200 ? name : "git-index:…" + name.substring(name.length() - 188);
    }

    private void release(IndexLock lock) {
        try {
            baton.namedLocks().release(lock.name, lock.holder.pid());
        } catch (BatonException e) {
            LOG.info("could not release {}: {}", lock.name, e.getMessage());
        }
    }

    static String shorten(String command) {
        String oneLine = command.strip().replace('\n', ' ');
        return oneLine.length() <= SHOWN_COMMAND_LENGTH ? oneLine : oneLine.substring(0, SHOWN_COMMAND_LENGTH - 1) + "…";
    }

    private record Blocked(String file, Holder holder, String part) {
    }

    private record IndexLock(Path repo, String name, ProcessIdentity holder) {
    }

    /** Files named on a command line, in order, with the part that names them. */
    private static final class SortedFiles {
        final Map<String, String> files = new TreeMap<>();
        final Map<String, String> trees = new TreeMap<>();
    }

    /**
     * A command that ran (or runs) and is checked when it ends: at its PostToolUse, or when the wrapper that ran it
     * reports its end (a background command's PostToolUse comes when it starts), or at the latest at the turn's end.
     */
    private static final class Pending {
        final String toolUseId;
        final String command;
        final Instant started;
        final Map<Path, WorkTreeState> states;
        final List<String> taken;
        final List<IndexLock> indexLocks;
        final boolean background;
        /** The wrapper's run of this command, once the wrapper asked which files to protect for it. */
        volatile String runId;

        /** Whether its end brings anything to do: a comparison of the tree, files or a turn at the index to release. */
        boolean checksAfter() {
            return !states.isEmpty() || !taken.isEmpty() || !indexLocks.isEmpty();
        }

        Pending(String toolUseId, String command, Instant started, Map<Path, WorkTreeState> states, List<String> taken,
                List<IndexLock> indexLocks, boolean background) {
            this.toolUseId = toolUseId;
            this.command = command;
            this.started = started;
            this.states = states;
            this.taken = taken;
            this.indexLocks = indexLocks;
            this.background = background;
        }
    }
}
