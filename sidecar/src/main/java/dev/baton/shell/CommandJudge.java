package dev.baton.shell;

import dev.baton.Baton;
import dev.baton.git.GitException;
import dev.baton.git.RepoRoot;
import dev.baton.git.WorkTreeState;
import dev.baton.lock.AcquireOutcome;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.LockResult;
import dev.baton.session.Session;
import java.nio.file.Path;
import java.time.Duration;
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
 * Decides, before a shell command runs, whether it may: the deny and allow lists; the files it names are taken as
 * the session's edits, or it is denied when another live session holds one ({@link HeldByOthers}); git commands that
 * would discard, stage or commit another session's held work, or plant code git runs, are denied ({@link GitJudge});
 * index writers of different sessions take turns ({@link IndexTurns}). A denial is audited where it names a file.
 */
final class CommandJudge {

    /** The audit action of a command refused by the machine's deny list (it names no file). */
    static final String DENY_LIST_ACTION = "shell-deny-list";

    private static final Logger LOG = LoggerFactory.getLogger(CommandJudge.class);

    /** What the judge decided. */
    sealed interface Verdict permits Refused, Cleared {
    }

    /** The command must not run, and why. */
    record Refused(String reason) implements Verdict {
    }

    /**
     * The command may run; what its end is checked against.
     *
     * @param repos the repositories it runs in
     * @param states git's view of repositories already taken to judge it
     * @param unknown whether a part of it could not be read
     * @param locked the files taken as its edits
     * @param turns the index turns taken for it
     */
    record Cleared(Set<Path> repos, Map<Path, WorkTreeState> states, boolean unknown, List<String> locked,
                   List<IndexTurns.Turn> turns) implements Verdict {
    }

    private final Baton baton;
    private final ShellSettings settings;
    private final Predicate<String> lockable;
    private final ShellAnalyzer analyzer;
    private final HeldByOthers held;
    private final GitJudge git;
    private final IndexTurns turns;

    CommandJudge(Baton baton, ShellSettings settings, Predicate<String> lockable,
                 Function<String, List<String>> patchPaths, HeldByOthers held, IndexTurns turns) {
        this.baton = baton;
        this.settings = settings;
        this.lockable = lockable;
        this.analyzer = new ShellAnalyzer(ShellAnalyzer.FileView.REAL, patchPaths);
        this.held = held;
        this.git = new GitJudge(held, settings.gitTimeout());
        this.turns = turns;
    }

    Verdict judge(Session session, ShellCommand command) {
        ShellAnalysis analysis = command.opaque()
                ? new ShellAnalysis(List.of(), List.of(), List.of(command.text()), List.of())
                : analyzer.analyse(command.text(), command.cwd());
        List<String> denied = settings.denied(analysis.commands());
        if (denied != null) {
            String part = String.join(" ", denied);
            audit(DENY_LIST_ACTION, session.id(), null, part, null);
            return new Refused(ShellWording.denyList(part));
        }
        Set<Path> repos = new LinkedHashSet<>();
        repoOf(command.cwd()).ifPresent(repos::add);
        analysis.git().forEach(g -> repoOf(workDir(g, command.cwd())).ifPresent(repos::add));
        if (analysis.readOnly() || settings.allowed(analysis.commands())) {
            // Still compared afterwards where that is cheap (a watched tree): a "read-only" program may write after all.
            return new Cleared(repos, Map.of(), false, List.of(), List.of());
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
        List<BlockedWrite> blocked = new ArrayList<>(held.under(session, trees));
        List<String> gitReasons = new ArrayList<>(git.planted(session, analysis.writes()));

        // 2. git commands judged against the repository's state
        for (GitCommand gitCommand : analysis.git()) {
            Optional<Path> repo = repoOf(workDir(gitCommand, command.cwd()));
            if (repo.isEmpty() || gitCommand.effect() == GitCommand.Effect.OTHER) {
                continue;
            }
            try {
                WorkTreeState state = stateOf(repo.get(), states);
                Map<String, Path> touched = git.touched(gitCommand, state);
                List<BlockedWrite> reached = held.among(session, touched.keySet(), gitCommand.part());
                String reason = git.reason(session, gitCommand, state, command.cwd(), reached);
                if (reason != null) {
                    gitReasons.add(reason);
                    reached.forEach(b -> audit("deny", session.id(), b.file(), b.part(), b.holder().session()));
                }
            } catch (GitException e) {
                LOG.warn("cannot judge `{}` for session {}: {}", gitCommand.part(), session.id(), e.getMessage());
            }
        }
        if (!blocked.isEmpty() || !gitReasons.isEmpty()) {
            blocked.forEach(b -> audit("deny", session.id(), b.file(), b.part(), b.holder().session()));
            return new Refused(ShellWording.of(blocked, gitReasons, command.cwd(), baton.clock().instant()));
        }

        // 3. index writers of different sessions take turns, per repository
        List<IndexTurns.Turn> taken = List.of();
        if (session.process() != null) {
            List<Path> writing = new ArrayList<>();
            List<String> parts = new ArrayList<>();
            for (GitCommand gitCommand : analysis.git()) {
                Optional<Path> repo = repoOf(workDir(gitCommand, command.cwd()));
                if (gitCommand.indexWrite() && repo.isPresent() && !writing.contains(repo.get())) {
                    writing.add(repo.get());
                    parts.add(gitCommand.part());
                }
            }
            IndexTurns.Outcome outcome = turns.take(session.process(), writing, parts);
            if (outcome.refusal() != null) {
                return new Refused(outcome.refusal());
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
                List<BlockedWrite> heldFiles = outcome.blocked().stream().filter(result -> result.holder() != null)
                        .map(result -> new BlockedWrite(result.file(), result.holder(), files.get(result.file())))
                        .toList();
                return new Refused(ShellWording.of(heldFiles, List.of(), command.cwd(), baton.clock().instant()));
            }
            outcome.results().stream().map(LockResult::file).forEach(locked::add);
            baton.versions().keepBase(session.id(), locked);
        }
        return new Cleared(repos, states, !analysis.unknown().isEmpty(), locked, taken);
    }

    /** What the session should know of the files it just took: a dead holder's work left in one of them. */
    List<String> notes(Session session, List<String> locked, Path cwd) {
        List<String> notes = new ArrayList<>();
        for (String file : locked) {
            baton.leftOverWork().noticeFor(file, ShellWording.shown(file, cwd), session.id(),
                    changed -> WorkTreeState.hasChanges(Path.of(changed), settings.gitTimeout()), baton.ledger()).ifPresent(notes::add);
        }
        return notes;
    }

    private void audit(String action, String sessionId, String file, String part, String holder) {
        baton.ledger().write(tx -> {
            tx.audit(action, sessionId, file, ShellWording.shorten(part), holder);
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
}
