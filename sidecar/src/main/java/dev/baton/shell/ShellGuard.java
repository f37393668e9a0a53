package dev.baton.shell;

import dev.baton.Baton;
import dev.baton.git.GitException;
import dev.baton.git.RepoRoot;
import dev.baton.git.TreeWatch;
import dev.baton.git.WorkTreeState;
import dev.baton.lock.AcquireOutcome;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockResult;
import dev.baton.session.AgentKind;
import dev.baton.session.ProcessAncestry;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import dev.baton.state.BatonException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards an agent's shell commands, in steps. Before one runs ({@link #before}): the deny and allow lists; the
 * files it names are taken as the session's edits, or it is denied when another live session holds one
 * ({@link HeldByOthers}); git commands that would discard, stage or commit another session's held work are denied
 * ({@link GitJudge}); index writers of different sessions take turns ({@link IndexTurns}); and the moment it starts
 * is kept ({@link AfterCheck#take}). While it runs, the wrapper makes the files other sessions hold read-only
 * ({@link Enforcement}), and ties its run to the announced command ({@link #runStarted}). When it ended (its
 * PostToolUse, the wrapper's report, the turn's end): what it changed is claimed or recorded and told
 * ({@link AfterCheck#settle}). The words agents read are {@link ShellDenial}'s.
 */
public final class ShellGuard {

    /** The audit action and event of a command that changed a file another session held. */
    public static final String CONFLICT_ACTION = AfterCheck.CONFLICT_ACTION;

    /** The audit action of a command refused by the machine's deny list (it names no file). */
    public static final String DENY_LIST_ACTION = "shell-deny-list";

    private static final Logger LOG = LoggerFactory.getLogger(ShellGuard.class);

    private final Baton baton;
    private final ShellSettings settings;
    private final Predicate<String> lockable;
    private final ShellAnalyzer analyzer;
    private final HeldByOthers held;
    private final GitJudge git;
    private final IndexTurns turns;
    private final AfterCheck afterCheck;
    private final PendingCommands pending = new PendingCommands();

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
        this.held = new HeldByOthers(baton);
        this.git = new GitJudge(held, settings.gitTimeout());
        this.turns = new IndexTurns(baton, host, settings.indexWait());
        this.afterCheck = new AfterCheck(baton, settings, lockable, held, treeWatch(baton, lockable));
    }

    /** The watch of working trees, or null where none can be made: git's view is asked instead. */
    private static TreeWatch treeWatch(Baton baton, Predicate<String> lockable) {
        try {
            Path dir = Files.createTempDirectory("baton-watch", PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
            TreeWatch watch = new TreeWatch(dir, directory -> !directory.getFileName().toString().equals(".git")
                    && lockable.test(directory.resolve("_").toString()));
            baton.closeWith(watch);
            return watch;
        } catch (IOException | UnsupportedOperationException e) {
            LOG.info("no tree watch ({}); the checks after shell commands ask git", e.getMessage());
            return null;
        }
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
        Session session = baton.sessions().get(command.sessionId());
        Instant started = baton.clock().instant();
        ShellAnalysis analysis = command.opaque()
                ? new ShellAnalysis(List.of(), List.of(), List.of(command.text()), List.of())
                : analyzer.analyse(command.text(), command.cwd());
        List<String> denied = settings.denied(analysis.commands());
        if (denied != null) {
            String part = String.join(" ", denied);
            audit(DENY_LIST_ACTION, session.id(), null, part, null);
            return new Deny("Baton denies `" + part + "`: it is on this machine's deny list (BATON_SHELL_DENY). Ask the"
                    + " person supervising the agents if it must run.");
        }
        Set<Path> repos = new LinkedHashSet<>();
        repoOf(command.cwd()).ifPresent(repos::add);
        analysis.git().forEach(g -> repoOf(workDir(g, command.cwd())).ifPresent(repos::add));
        if (analysis.readOnly() || settings.allowed(analysis.commands())) {
            // Still compared afterwards where that is cheap (a watched tree): a "read-only" program may write after all.
            remember(command, afterCheck.take(session, started, repos, Map.of(), false), List.of(), List.of());
            return SILENT;
        }
        Map<Path, WorkTreeState> states = new LinkedHashMap<>();

        // 1. files and trees named on the command line
        Map<String, String> files = new TreeMap<>();
        List<WriteTarget> trees = new ArrayList<>();
        for (WriteTarget target : analysis.writes()) {
            String canonical = HeldByOthers.canonical(target.path());
            if (canonical == null) {
                continue;
            }
            if (target.tree() || target.glob() != null) {
                trees.add(target);
            } else if (lockable.test(canonical)) {
                files.putIfAbsent(canonical, target.part());
            }
        }
        List<ShellDenial.Blocked> blocked = new ArrayList<>(held.under(session, trees));
        List<String> gitReasons = new ArrayList<>(planted(session, analysis.writes()));

        // 2. git commands judged against the repository's state
        for (GitCommand command1 : analysis.git()) {
            Optional<Path> repo = repoOf(workDir(command1, command.cwd()));
            if (repo.isEmpty() || command1.effect() == GitCommand.Effect.OTHER) {
                continue;
            }
            try {
                WorkTreeState state = stateOf(repo.get(), states);
                Map<String, Path> touched = git.touched(command1, state);
                List<ShellDenial.Blocked> reached = held.among(session, touched.keySet(), command1.part());
                String reason = git.reason(session, command1, state, command.cwd(), reached);
                if (reason != null) {
                    gitReasons.add(reason);
                    reached.forEach(b -> audit("deny", session.id(), b.file(), b.part(), b.holder().session()));
                }
            } catch (GitException e) {
                LOG.warn("cannot judge `{}` for session {}: {}", command1.part(), session.id(), e.getMessage());
            }
        }
        if (!blocked.isEmpty() || !gitReasons.isEmpty()) {
            blocked.forEach(b -> audit("deny", session.id(), b.file(), b.part(), b.holder().session()));
            return new Deny(ShellDenial.of(blocked, gitReasons, command.cwd(), baton.clock().instant()));
        }

        // 3. index writers of different sessions take turns, per repository
        List<IndexTurns.Turn> taken = List.of();
        if (session.process() != null) {
            List<Path> writing = new ArrayList<>();
            List<String> parts = new ArrayList<>();
            for (GitCommand command1 : analysis.git()) {
                Optional<Path> repo = repoOf(workDir(command1, command.cwd()));
                if (command1.indexWrite() && repo.isPresent() && !writing.contains(repo.get())) {
                    writing.add(repo.get());
                    parts.add(command1.part());
                }
            }
            IndexTurns.Outcome outcome = turns.take(session.process(), writing, parts);
            if (outcome.refusal() != null) {
                return new Deny(outcome.refusal());
            }
            taken = outcome.turns();
        }

        // 4. the named files become this session's edits, all or none
        List<String> locked = new ArrayList<>();
        if (!files.isEmpty()) {
            AcquireOutcome outcome = baton.locks().acquire(new AcquireRequest(session.id(), List.copyOf(files.keySet()),
                    Duration.ZERO, true, true));
            if (!outcome.allAcquired()) {
                taken.forEach(turns::end);
                List<ShellDenial.Blocked> heldFiles = outcome.blocked().stream().filter(result -> result.holder() != null)
                        .map(result -> new ShellDenial.Blocked(result.file(), result.holder(), files.get(result.file())))
                        .toList();
                return new Deny(ShellDenial.of(heldFiles, List.of(), command.cwd(), baton.clock().instant()));
            }
            outcome.results().stream().map(LockResult::file).forEach(locked::add);
        }

        // 5. the moment it starts, for the check when it ended
        remember(command, afterCheck.take(session, started, repos, states, !analysis.unknown().isEmpty()), locked, taken);
        List<String> notes = new ArrayList<>();
        for (String file : locked) {
            baton.leftOverWork().noticeFor(file, ShellDenial.shown(file, command.cwd()), session.id(),
                    changed -> WorkTreeState.hasChanges(Path.of(changed), settings.gitTimeout()), baton.ledger()).ifPresent(notes::add);
        }
        return new Proceed(notes);
    }

    /**
     * Writes that plant code git runs for everyone in a repository (a hook, its configuration, attributes naming
     * filters or drivers), refused while other sessions hold files there: another session's git command would run it.
     */
    private List<String> planted(Session session, List<WriteTarget> writes) {
        List<String> reasons = new ArrayList<>();
        for (WriteTarget write : writes) {
            Path path = write.path();
            Optional<Path> repo = RepoRoot.of(path.getParent() == null ? path : path.getParent())
                    .map(root -> root.getFileName() != null && root.getFileName().toString().equals(".git") ? root.getParent() : root);
            if (repo.isEmpty()) {
                continue;
            }
            Path git = repo.get().resolve(".git");
            boolean plants = path.startsWith(git.resolve("hooks")) || path.equals(git.resolve("config"))
                    || path.equals(git.resolve("info/attributes")) || path.getFileName() != null
                    && path.getFileName().toString().equals(".gitattributes") || write.tree() && git.startsWith(path);
            if (!plants) {
                continue;
            }
            List<ShellDenial.Blocked> inRepo = held.among(session, held.all().stream()
                    .filter(file -> Path.of(file).startsWith(repo.get())).collect(java.util.stream.Collectors.toSet()), write.part());
            if (!inRepo.isEmpty()) {
                reasons.add("`" + ShellDenial.shorten(write.part()) + "` would change what git runs in this repository ("
                        + ShellDenial.shown(path.toString(), repo.get()) + ") while other sessions hold files there: "
                        + inRepo.stream().map(b -> ShellDenial.shown(b.file(), repo.get()) + " (" + ShellDenial.holderText(b.holder()) + ")")
                        .collect(java.util.stream.Collectors.joining(", "))
                        + ". Ask the person supervising the agents to change it, or change it once the other sessions are done.");
            }
        }
        return reasons;
    }

    private void remember(ShellCommand command, AfterCheck.Before before, List<String> taken, List<IndexTurns.Turn> turns) {
        boolean endReported = command.background() || baton.sessions().find(command.sessionId())
                .map(session -> session.agent() == AgentKind.CODEX).orElse(false);
        pending.add(new PendingCommands.Pending(command, before, taken, turns, endReported));
    }

    /**
     * After the command (PostToolUse, or PostToolUseFailure: a command that failed may have written all the same):
     * what it changed that the session did not hold becomes the session's, or is reported when another session held
     * it. Returns what the writer's agent should read. A background command's end is still to come.
     */
    public List<String> after(String sessionId, String toolUseId) {
        return pending.takeEnded(sessionId, toolUseId).map(entry -> finish(sessionId, entry)).orElse(List.of());
    }

    /**
     * What the wrapper of one command learns at its start: the run's id, whether to report the command's end, and
     * the command as the agent announced it (null when the run matched none).
     */
    public record Run(String id, boolean reportEnd, String announced) {
    }

    /**
     * The wrapper of a command of one of {@code sessions} (the caller's own, from the kernel's view of it) is about
     * to run it, making {@code readOnly} read-only for it. The announced command it runs is found by the agent's tool
     * call id, or else by its text inside what the wrapper runs; when there is one and it is still to be checked, the
     * wrapper reports its end.
     */
    public Run runStarted(Set<String> sessions, String callId, String command, ProcessIdentity wrapper) {
        String id = PendingCommands.newRunId();
        return pending.startRun(sessions, callId, command, id, wrapper)
                .map(entry -> new Run(id, entry.endReported && entry.checksAfter(), entry.command.text()))
                .orElse(new Run(id, false, null));
    }

    /** The files made read-only for a run, known once the plan is made: a change to one was its holder's. */
    public void runProtects(String runId, List<String> files) {
        pending.protect(runId, files);
    }

    /** The wrapper reports that the command of run {@code runId} ended: it is checked now. */
    public List<String> runEnded(String runId) {
        return pending.takeRun(runId).map(entry -> finish(entry.command.sessionId(), entry)).orElse(List.of());
    }

    /**
     * The turn ended (or the session did): every command still pending has ended too, as far as the agent goes. A
     * background command whose wrapper still runs is checked now and compared again from now on, until its end.
     */
    public List<String> turnEnded(String sessionId) {
        List<String> lines = new ArrayList<>();
        for (PendingCommands.Pending entry : pending.takeAll(sessionId)) {
            lines.addAll(finish(entry.command.sessionId(), entry));
            if (entry.runId != null && entry.endReported && ProcessAncestry.isRunning(entry.wrapper)) {
                Session session = baton.sessions().find(entry.command.sessionId()).orElse(null);
                if (session != null) {
                    PendingCommands.Pending rest = new PendingCommands.Pending(entry.command, afterCheck.take(session,
                            baton.clock().instant(), entry.before.repos(), Map.of(), true), List.of(), List.of(), true);
                    rest.runId = entry.runId;
                    rest.wrapper = entry.wrapper;
                    rest.protectedFiles = entry.protectedFiles;
                    pending.add(rest);
                }
            }
        }
        return lines;
    }

    /** Commands the agent cannot match to their end (no tool call id) end when its next command starts. */
    private void finishUnmatched(String sessionId) {
        pending.takeUnmatched(sessionId).forEach(entry -> finish(sessionId, entry));
    }

    private List<String> finish(String sessionId, PendingCommands.Pending entry) {
        entry.turns.forEach(turns::end);
        try {
            if (!entry.taken.isEmpty()) {
                baton.locks().editDone(sessionId, entry.taken);
            }
            return afterCheck.settle(sessionId, entry.command, entry.before,
                    lock -> busy(lock, entry.before.started()), entry.protectedFiles);
        } catch (BatonException e) {
            LOG.info("check after `{}` for session {} skipped: {}", ShellDenial.shorten(entry.command.text()), sessionId,
                    e.getMessage());
            return List.of();
        }
    }

    /** Whether the holder was at work on its file meanwhile: an edit since the command started, or one in flight. */
    private static boolean busy(FileLock lock, Instant started) {
        return lock.editInFlight() || lock.lastEditAt() != null && lock.lastEditAt().isAfter(started);
    }

    private void audit(String action, String sessionId, String file, String part, String holder) {
        baton.ledger().write(tx -> {
            tx.audit(action, sessionId, file, ShellDenial.shorten(part), holder);
            return null;
        });
    }

    private WorkTreeState stateOf(Path repo, Map<Path, WorkTreeState> states) throws GitException {
        WorkTreeState state = states.get(repo);
        if (state == null) {
            state = WorkTreeState.of(repo, settings.gitTimeout());
            states.put(repo, state);
        }
        return state;
    }

    private static Path workDir(GitCommand git, Path cwd) {
        return git.workDir() != null ? git.workDir() : cwd;
    }

    private static Optional<Path> repoOf(Path dir) {
        return dir == null ? Optional.empty() : RepoRoot.of(dir);
    }

    static String indexLockName(Path repo) {
        return IndexTurns.name(repo);
    }

    static String shorten(String command) {
        return ShellDenial.shorten(command);
    }
}
