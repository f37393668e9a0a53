package dev.baton.hook;

import dev.baton.Baton;
import dev.baton.git.BranchDivergence;
import dev.baton.git.GitStatus;
import dev.baton.git.PlantedCode;
import dev.baton.git.RepoRoot;
import dev.baton.git.WorkTreeState;
import dev.baton.lock.AcquireOutcome;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.CanonicalPath;
import dev.baton.lock.CopyNotices;
import dev.baton.lock.FileCopy;
import dev.baton.lock.HeldCopy;
import dev.baton.lock.LockResult;
import dev.baton.lock.ReleaseReason;
import dev.baton.negotiation.Negotiation;
import dev.baton.session.ConnectionPeer;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Registered;
import dev.baton.session.SessionRows;
import dev.baton.shell.Enforcement;
import dev.baton.shell.ShellGuard;
import dev.baton.shell.ShellSettings;
import dev.baton.shell.ShellWatch;
import dev.baton.state.BatonException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * What Baton does on each agent hook event (docs/ARCHITECTURE.md, "When locks end"): SessionStart registers and
 * introduces Baton, PreToolUse locks every file an edit writes (all or nothing) or denies it, PostToolUse
 * ends the edit, a failed or refused tool ends it and frees its file if still clean, Stop ends every edit of
 * the turn and releases clean files, SubagentStop hands a subagent's files to its parent, SessionEnd releases
 * everything.
 */
final class HookService {

    /** Bounds the git check at a turn's end; the hook script waits a few seconds at most for any answer. */
    static final Duration GIT_TIMEOUT = Duration.ofSeconds(2);

    private final Baton baton;
    private final Dialects dialects;
    private final LockScope scope;
    private final HookNotices notices;
    private final HookNotices sidecarNotices;
    private final Map<String, List<String>> ownLines = new HashMap<>();
    private final DeniedEditListener denials;
    private final HookSessions sessions;
    private final CleanFileRelease turnEnd;
    private final ShellHook shell;
    private final Enforcement enforcement;
    private final BranchDivergence divergence = new BranchDivergence(GIT_TIMEOUT);

    HookService(Baton baton, Dialects dialects, LockScope scope, HookNotices notices, DeniedEditListener denials) {
        this.dialects = dialects;
        this.baton = baton;
        this.scope = scope;
        this.sidecarNotices = notices;
        this.notices = this::take;
        this.denials = denials;
        this.sessions = new HookSessions(baton.sessions(), hostName());
        this.turnEnd = new CleanFileRelease(baton.locks(), baton.sessions(), new GitStatus(GIT_TIMEOUT));
        ShellSettings shellSettings = ShellSettings.fromEnvironment(System.getenv());
        ShellGuard shellGuard = new ShellGuard(baton, shellSettings, scope::locks, PatchPaths::of, hostName(),
                dialects::reportsShellCommandEnd);
        Enforcement enforcement = new Enforcement(baton, shellSettings);
        this.enforcement = enforcement;
        this.shell = new ShellHook(shellGuard, enforcement, new ShellWatch(baton, enforcement, shellGuard), sessions,
                this.notices);
    }

    /**
     * One hook call as the script sends it: the agent it was installed for, the event, its parent pid (checked
     * against the kernel's view of the connection), the payload, and the process behind the connection.
     */
    record HookRequest(String agent, String event, long ppid, byte[] body, ConnectionPeer caller, String script) {
    }

    HookOutput handle(HookRequest request) {
        dialects.requireKnown(request.agent());
        HookPayload payload = HookPayload.parse(request.body());
        Dialect dialect = dialects.detect(request.agent(), payload);
        HookCall call = dialect.read(payload, request.event());
        if (call.event() != EventKind.OTHER) {
            String main = sessions.mainIdIfKnown(call, request.ppid());
            if (main != null && baton.sessions().requireHookCaller(main, call.agent(), request.caller(),
                    () -> HookSessions.agentOf(request.ppid()))) {
                sessions.resume(call, request.ppid());
            }
        }
        HookReply reply = shell.handles(call) ? shell.handle(call, payload, dialect, request.ppid(), request.script())
                : switch (call.event()) {
            case SESSION_START -> sessionStart(call, dialect, request.ppid());
            case PRE_TOOL -> preTool(call, dialect, request.ppid());
            case POST_TOOL -> postTool(call, dialect, request.ppid());
            case TOOL_FAILED -> toolFailed(call, request.ppid());
            case STOP -> stop(call, request.ppid());
            case SUBAGENT_STOP -> subagentStop(call, request.ppid());
            case SESSION_END -> sessionEnd(call, request.ppid());
            case OTHER -> HookReply.SILENT;
        };
        return dialect.render(reply, call.event());
    }

    /** The shell wrapper's question before it runs a command (see {@link ShellHook#guard}). */
    ShellHook.Guarded guard(ProcessIdentity caller, String callId, String command, String cwd) {
        String dir = HookSessions.absoluteOrNull(cwd);
        return shell.guard(caller, callId, command, dir == null ? null : Path.of(CanonicalPath.of(dir, null)));
    }

    List<String> shellEnded(String runId) {
        return shell.ended(runId);
    }

    /** The binder of a running command asks for the next change of its read-only set (see {@link ShellWatch}). */
    CompletableFuture<Enforcement.Plan> shellWatch(ShellWatch.Ticket ticket, String seen, List<String> rebound) {
        return shell.watch(ticket, seen, rebound);
    }

    private HookReply sessionStart(HookCall call, Dialect dialect, long ppid) {
        Registered registered = sessions.start(call, ppid);
        String id = registered.session().id();
        String extra = String.join("\n", dialect.carriesContext(EventKind.SESSION_START) ? notices.take(id) : List.of());
        return HookReply.context(SessionIntro.text(id) + (extra.isEmpty() ? "" : "\n\n" + extra));
    }

    private HookReply preTool(HookCall call, Dialect dialect, long ppid) {
        SortedSet<String> files = lockable(call, ppid); // bad paths are refused before anything is registered
        String session = sessions.ensure(call, ppid);
        Optional<String> planting = planting(call, ppid, session);
        if (planting.isPresent()) {
            return new HookReply.Deny(planting.get());
        }
        if (files.isEmpty()) {
            return noticesFor(session, dialect, EventKind.PRE_TOOL);
        }
        AcquireOutcome outcome = baton.locks().acquire(
                new AcquireRequest(session, List.copyOf(files), Duration.ZERO, true, true));
        if (outcome.allAcquired()) {
            baton.versions().keepBase(session, files);
            tellOtherCopies(session, outcome, call.cwd());
            for (String file : files) {
                baton.leftOverWork().noticeFor(file, DenyReason.shown(file, canonicalCwd(call.cwd())), session,
                        changed -> WorkTreeState.hasChanges(Path.of(changed), GIT_TIMEOUT), baton.ledger()).ifPresent(line -> told(session, line));
            }
            return noticesFor(session, dialect, EventKind.PRE_TOOL);
        }
        List<LockResult> held = outcome.blocked().stream().filter(result -> result.holder() != null).toList();
        Set<String> ownSubagents = held.stream().map(result -> result.holder().session())
                .filter(holder -> baton.sessions().find(holder).map(s -> session.equals(s.parentId())).orElse(false))
                .collect(Collectors.toSet());
        // Waiting for one's own subagent is no conflict with another session: no wait-for edge, no deadlock.
        held.stream().filter(result -> !ownSubagents.contains(result.holder().session()))
                .forEach(result -> denials.denied(session, heldFile(result), result.holder()));
        Map<String, Negotiation> pending = new HashMap<>();
        held.forEach(result -> baton.negotiations().openRequest(session, result.file())
                .ifPresent(asked -> pending.put(result.file(), asked)));
        String reason = DenyReason.of(held, files.size(), call.cwd(), baton.clock().instant(), ownSubagents, pending);
        List<String> lines = notices.take(session); // the reason always reaches the agent, so notices can ride on it
        return new HookReply.Deny(lines.isEmpty() ? reason : reason + "\n\n" + String.join("\n", lines));
    }

    /** Who else is changing the files just taken, in other copies of the repository on other branches. */
    private void tellOtherCopies(String session, AcquireOutcome outcome, String cwd) {
        for (LockResult result : outcome.results()) {
            if (result.alsoChangedIn().isEmpty()) {
                continue;
            }
            Optional<FileCopy> mine = baton.locks().copyOf(result.file());
            for (HeldCopy other : result.alsoChangedIn()) {
                OptionalInt lines = mine.isEmpty() || mine.get().branch() == null ? OptionalInt.empty()
                        : divergence.linesChanged(Path.of(other.worktree()), mine.get().path(), mine.get().branch());
                told(session, CopyNotices.forTaker(DenyReason.shown(result.file(), canonicalCwd(cwd)), other, lines));
            }
        }
    }

    /** The held file a denied edit waits for: another path to it or its copy elsewhere, else the file itself. */
    private static String heldFile(LockResult result) {
        if (result.copyOf() != null) {
            return result.copyOf().file();
        }
        return result.sameFileAs() != null ? result.sameFileAs() : result.file();
    }

    private HookReply postTool(HookCall call, Dialect dialect, long ppid) {
        SortedSet<String> files = lockable(call, ppid);
        String session = sessions.ensure(call, ppid);
        if (!files.isEmpty()) {
            baton.locks().editDone(session, files);
            baton.versions().keep(session, files);
        }
        return noticesFor(session, dialect, EventKind.POST_TOOL);
    }

    private HookReply toolFailed(HookCall call, long ppid) {
        SortedSet<String> files = lockable(call, ppid);
        String session = sessions.ensure(call, ppid);
        if (!files.isEmpty()) {
            turnEnd.editFailed(session, files);
        }
        return HookReply.SILENT;
    }

    private HookReply stop(HookCall call, long ppid) {
        String session = sessions.ensure(call, ppid);
        // What a command settled only now changed of another session's file reaches its writer at its next call.
        shell.turnEnded(session).forEach(line -> told(session, line));
        turnEnd.turnEnded(session);
        return HookReply.SILENT;
    }

    private HookReply subagentStop(HookCall call, long ppid) {
        String main = sessions.mainIdIfKnown(call, ppid);
        if (main != null && baton.sessions().find(main).isPresent()) {
            String subagent = HookSessions.subagentOf(main, call.subagentId());
            shell.turnEnded(subagent);
            turnEnd.subagentEnded(subagent, main);
        }
        return HookReply.SILENT;
    }

    private HookReply sessionEnd(HookCall call, long ppid) {
        String main = sessions.mainIdIfKnown(call, ppid);
        if (main == null) {
            return HookReply.SILENT;
        }
        String id = call.subagentId() == null ? main : HookSessions.subagentOf(main, call.subagentId());
        shell.turnEnded(id);
        baton.ledger().write(tx -> tx.world().find(SessionRows.SESSIONS, id)
                .map(session -> baton.locks().endSession(tx, session, ReleaseReason.SESSION_ENDED, null))
                .orElse(List.of()));
        return HookReply.SILENT;
    }

    private HookReply noticesFor(String session, Dialect dialect, EventKind event) {
        if (!dialect.carriesContext(event)) {
            return HookReply.SILENT;
        }
        return HookReply.context(String.join("\n", notices.take(session)));
    }

    /** A line for the session's next hook call that carries context (this one's, when it does). */
    private void told(String session, String line) {
        synchronized (ownLines) {
            ownLines.computeIfAbsent(session, id -> new ArrayList<>()).add(line);
        }
    }

    /** The sidecar's notices for a session, then the lines this service has for it. */
    private List<String> take(String session) {
        List<String> lines = new ArrayList<>(sidecarNotices.take(session));
        synchronized (ownLines) {
            List<String> own = ownLines.remove(session);
            if (own != null) {
                lines.addAll(own);
            }
        }
        return lines;
    }

    private static Path canonicalCwd(String cwd) {
        String dir = HookSessions.absoluteOrNull(cwd);
        return dir == null ? null : Path.of(CanonicalPath.of(dir, null));
    }

    /**
     * The canonical files of the call that Baton locks, sorted and distinct. A path through {@code /proc/self} is the
     * agent's: the agent's tool opens the file.
     */
    /**
     * An edit of a file that decides what git or a shell runs (a git hook, the repository's configuration or
     * attributes, the user's git configuration or shell start-up files) while another session holds files there:
     * that code would run in the other session's commands, as that session. Refused with the reason.
     */
    private Optional<String> planting(HookCall call, long ppid, String session) {
        if (!call.editTool()) {
            return Optional.empty();
        }
        String cwd = HookSessions.absoluteOrNull(call.cwd());
        Path home = Path.of(System.getProperty("user.home"));
        for (String raw : call.files()) {
            Path file = Path.of(CanonicalPath.of(raw, cwd, () -> HookSessions.agentOf(ppid).map(ProcessIdentity::pid).orElse(0L)));
            Optional<Path> repository = RepoRoot.of(file);
            Optional<String> kind = PlantedCode.kindOf(file, repository, home);
            if (kind.isEmpty()) {
                continue;
            }
            boolean inHome = file.startsWith(home) && repository.map(root -> !file.startsWith(root)).orElse(true);
            if (enforcement.othersHoldIn(session, inHome ? Optional.empty() : repository)) {
                baton.ledger().write(tx -> {
                    tx.audit("planting-refused", session, file.toString(), kind.get(), null);
                    return null;
                });
                return Optional.of("Baton blocked this edit: " + file + " is " + kind.get() + ", and other sessions hold"
                        + " files " + (inHome ? "on this machine" : "in this repository") + ": what you write there would"
                        + " run in their commands. Leave it until they have released their files (`baton locks` shows"
                        + " them), or ask the person supervising.");
            }
        }
        return Optional.empty();
    }

    private SortedSet<String> lockable(HookCall call, long ppid) {
        String cwd = HookSessions.absoluteOrNull(call.cwd());
        SortedSet<String> files = new TreeSet<>();
        for (String raw : call.files()) {
            String file = CanonicalPath.of(raw, cwd, () -> HookSessions.agentOf(ppid).map(ProcessIdentity::pid).orElse(0L));
            if (scope.locks(file) || baton.locks().isAnotherPathToAHeldFile(file)) {
                files.add(file);
            }
        }
        return files;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
