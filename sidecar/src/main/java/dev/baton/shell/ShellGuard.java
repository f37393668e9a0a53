package dev.baton.shell;

import dev.baton.Baton;
import dev.baton.git.TreeWatch;
import dev.baton.session.AgentKind;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guards an agent's shell commands, as a pipeline of steps it composes. Before one runs, {@link CommandJudge} decides
 * whether it may, and the moment it starts is kept ({@link AfterCheck#take}); the command then waits among the
 * {@link PendingCommands} for its end. While it runs, the wrapper makes the files other sessions hold read-only
 * ({@link Enforcement}) and ties its run to the announced command ({@link #runStarted}). When it ended (its
 * PostToolUse, the wrapper's report, the turn's end), {@link Settlement} claims or records and tells what it changed.
 * The words agents read are {@link ShellWording}'s.
 */
public final class ShellGuard {

    /** The audit action and event of a command that changed a file another session held. */
    public static final String CONFLICT_ACTION = AfterCheck.CONFLICT_ACTION;

    /** The audit action of a command refused by the machine's deny list (it names no file). */
    public static final String DENY_LIST_ACTION = CommandJudge.DENY_LIST_ACTION;

    private static final Logger LOG = LoggerFactory.getLogger(ShellGuard.class);

    private final Baton baton;
    private final ShellSettings settings;
    private final CommandJudge judge;
    private final AfterCheck afterCheck;
    private final PendingCommands pending = new PendingCommands();
    private final Settlement settlement;
    private final Predicate<AgentKind> reportsCommandEnd;

    /**
     * @param lockable whether Baton locks a canonical file (the same rule as for edit tools)
     * @param patchPaths the files an apply_patch text names
     * @param reportsCommandEnd whether an agent of this kind reports the end of its shell commands (a PostToolUse);
     *                          for one that does not, the wrapper reports it
     */
    public ShellGuard(Baton baton, ShellSettings settings, Predicate<String> lockable,
                      Function<String, List<String>> patchPaths, String host, Predicate<AgentKind> reportsCommandEnd) {
        this.baton = baton;
        this.settings = settings;
        this.reportsCommandEnd = reportsCommandEnd;
        HeldByOthers held = new HeldByOthers(baton);
        IndexTurns turns = new IndexTurns(baton, host, settings.indexWait());
        this.judge = new CommandJudge(baton, settings, lockable, patchPaths, held, turns);
        this.afterCheck = new AfterCheck(baton, settings, lockable, held, treeWatch(baton, lockable));
        this.settlement = new Settlement(baton, afterCheck, turns);
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
        // Commands the agent cannot match to their end (no tool call id) end when its next command starts.
        pending.takeUnmatched(command.sessionId()).forEach(settlement::settle);
        Session session = baton.sessions().get(command.sessionId());
        Instant started = baton.clock().instant();
        CommandJudge.Verdict verdict = judge.judge(session, command);
        if (verdict instanceof CommandJudge.Refused refused) {
            return new Deny(refused.reason());
        }
        CommandJudge.Cleared cleared = (CommandJudge.Cleared) verdict;
        // The moment it starts, for the check when it ended.
        remember(command, afterCheck.take(session, started, cleared.repos(), cleared.states(), cleared.unknown()),
                cleared.locked(), cleared.turns());
        return cleared.locked().isEmpty() ? SILENT : new Proceed(judge.notes(session, cleared.locked(), command.cwd()));
    }

    private void remember(ShellCommand command, AfterCheck.Before before, List<String> taken, List<IndexTurns.Turn> turns) {
        boolean endReported = command.background() || baton.sessions().find(command.sessionId())
                .map(session -> !reportsCommandEnd.test(session.agent())).orElse(false);
        pending.add(new PendingCommands.Pending(command, before, taken, turns, endReported));
    }

    /**
     * After the command (PostToolUse, or PostToolUseFailure: a command that failed may have written all the same):
     * what it changed that the session did not hold becomes the session's, or is reported when another session held
     * it. Returns what the writer's agent should read. A background command's end is still to come.
     */
    public List<String> after(String sessionId, String toolUseId) {
        return pending.takeEnded(sessionId, toolUseId).map(settlement::settle).orElse(List.of());
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

    /** Files its binder had to bind again (their holder replaced them): a change to one may have been the command's. */
    public void runUnprotects(String runId, List<String> files) {
        Set<String> gone = Set.copyOf(files);
        pending.narrow(runId, file -> !gone.contains(file));
    }

    /** The files still read-only for a run as its plan changes: one that was released meanwhile is no longer. */
    public void runStillProtects(String runId, List<String> files) {
        Set<String> still = Set.copyOf(files);
        pending.narrow(runId, still::contains);
    }

    /** The wrapper reports that the command of run {@code runId} ended: it is checked now. */
    public List<String> runEnded(String runId) {
        return pending.takeRun(runId).map(settlement::settle).orElse(List.of());
    }

    /**
     * The turn ended (or the session did): every command still pending has ended too, as far as the agent goes. A
     * background command whose wrapper still runs is checked now and compared again from now on, until its end.
     */
    public List<String> turnEnded(String sessionId) {
        List<String> lines = new ArrayList<>();
        for (PendingCommands.Pending entry : pending.takeAll(sessionId)) {
            lines.addAll(settlement.settle(entry));
            settlement.rest(entry).ifPresent(pending::add);
        }
        return lines;
    }
}
