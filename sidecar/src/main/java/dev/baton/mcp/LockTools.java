package dev.baton.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.Baton;
import dev.baton.http.Views;
import dev.baton.lock.AcquireOutcome;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.CanonicalPath;
import dev.baton.lock.CopyNotices;
import dev.baton.lock.FileLock;
import dev.baton.lock.HeldMessage;
import dev.baton.lock.LockResult;
import dev.baton.lock.LockRows;
import dev.baton.lock.ReleaseOutcome;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.Session;
import dev.baton.version.Versions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/** lock_acquire, lock_release, lock_status: the file locks of docs/ARCHITECTURE.md, "Locks", as tools. */
final class LockTools {

    static final int MAX_FILES = 1000;
    static final int MAX_WAIT_SECONDS = AcquireRequest.MAX_WAIT_SECONDS;

    private final Baton baton;

    LockTools(Baton baton) {
        this.baton = baton;
    }

    List<Tool> tools() {
        return List.of(
                new Tool("lock_acquire", "Lock files before editing",
                        "Lock files before you edit them, so no other agent overwrites your work. Locks are exclusive and"
                                + " re-entrant (asking again for a file you hold succeeds). Each file is answered on its own:"
                                + " acquired, or held by another session (who, since when, alive or not, its plan). With"
                                + " wait_seconds above 0 the call waits until at least one blocked file was acquired (keeping"
                                + " what it got) or the time is up; ask again for the rest. If a file stays held, ask its"
                                + " holder for it with negotiate_release.",
                        Schema.agentCall()
                                .property("files", Schema.strings("Files to lock: absolute paths, or relative to cwd.", 1, MAX_FILES))
                                .property("cwd", cwdSchema())
                                .property("wait_seconds", Schema.integer("How long to wait for a held file; 0 tries once.",
                                        0, MAX_WAIT_SECONDS, 0))
                                .required("files").build(),
                        this::acquire),
                new Tool("lock_release", "Release locked files",
                        "Release files you hold so others may edit them. Releasing a file you do not hold succeeds and"
                                + " says so. Requests other sessions made for a released file resolve as released.",
                        Schema.agentCall()
                                .property("files", Schema.oneOf("Either a list of files, or \"all\" for everything you hold.",
                                        Schema.strings("These files: absolute paths, or relative to cwd.", 1, MAX_FILES),
                                        Schema.constant("Every file your session holds.", "all")))
                                .property("cwd", cwdSchema())
                                .required("files").build(),
                        this::release),
                new Tool("lock_status", "Who holds which files",
                        "Show who holds files. With files: the holder of each one, or that it is free. Without: every"
                                + " held lock, or only those of one session.",
                        Schema.object()
                                .property("files", Schema.strings("Files to look up: absolute paths, or relative to cwd.", 1, MAX_FILES))
                                .property("cwd", Schema.string("Directory relative paths start from.", 1, 4096))
                                .property("session_id", Schema.string("Only the locks of this session.", 1, 200))
                                .build(),
                        this::status),
                new Tool("restore_file", "Put back your last version of a file",
                        "Write back the last version Baton kept of a file you hold (from the end of your last edit of it,"
                                + " or from when you took it), after another session's command changed, replaced or removed"
                                + " it. The session whose command changed it is told. Only the working copy is put back.",
                        Schema.agentCall()
                                .property("file", Schema.string("The file: an absolute path, or relative to cwd.", 1, 4096))
                                .property("cwd", cwdSchema())
                                .required("file").build(),
                        this::restore));
    }

    private ToolResult restore(ToolArgs args) {
        Session session = args.session();
        String file = CanonicalPath.of(args.string("file"), cwd(args, session), args.caller()::self);
        Versions.Restored restored = baton.versions().restore(file, session.id(), session.id());
        return ToolResult.ok("restored " + shown(session, file) + " to your last version (" + restored.size() + " bytes)"
                + (restored.changedBy() == null ? "" : "; session " + HeldMessage.shortId(restored.changedBy())
                        + ", whose command changed it, is told"), restored);
    }

    static List<String> acquired(AcquireOutcome outcome) {
        return outcome.results().stream().filter(LockResult::acquired).map(LockResult::file).toList();
    }

    static ObjectNode cwdSchema() {
        return Schema.string("Directory that relative paths start from; defaults to your session's working directory.", 1, 4096);
    }

    private ToolResult acquire(ToolArgs args) {
        Session session = args.session();
        List<String> files = canonical(args.strings("files"), cwd(args, session), args.caller());
        AcquireOutcome outcome = baton.locks().acquire(AcquireRequest.explicit(session.id(), files,
                Duration.ofSeconds(args.integer("wait_seconds", 0))));
        baton.versions().keepBase(session.id(), acquired(outcome));
        Instant now = baton.clock().instant();
        List<String> lines = new ArrayList<>();
        for (LockResult result : outcome.results()) {
            String shown = shown(session, result.file());
            if (result.acquired()) {
                lines.add((result.reentrant() ? "already yours: " : "acquired: ") + shown);
                result.alsoChangedIn().forEach(other -> lines.add(CopyNotices.forTaker(shown, other, OptionalInt.empty())));
            } else if (result.copyOf() != null) {
                lines.add("held: " + HeldMessage.ofCopy(shown, result.copyOf(), now));
            } else if (result.holder() != null) {
                lines.add("held: " + HeldMessage.of(shown,
                        result.sameFileAs() == null ? null : shown(session, result.sameFileAs()), result.holder(), now));
            } else {
                lines.add("not taken: " + shown);
            }
        }
        if (!outcome.allAcquired()) {
            lines.add("To ask a holder for its file, call negotiate_release with the file and your reason.");
        }
        return ToolResult.ok(String.join("\n", lines), outcome);
    }

    private ToolResult release(ToolArgs args) {
        Session session = args.session();
        ReleaseOutcome outcome = args.node("files").isTextual()
                ? baton.locks().releaseAll(session.id(), ReleaseReason.RELEASED)
                : baton.locks().release(session.id(), canonical(args.strings("files"), cwd(args, session), args.caller()), ReleaseReason.RELEASED);
        List<String> lines = new ArrayList<>();
        outcome.released().forEach(file -> lines.add("released: " + shown(session, file)));
        outcome.notHeld().forEach(file -> lines.add("was not held by you: " + shown(session, file)));
        if (lines.isEmpty()) {
            lines.add("you held nothing");
        }
        return ToolResult.ok(String.join("\n", lines), outcome);
    }

    private ToolResult status(ToolArgs args) {
        if (args.has("files")) {
            List<String> files = canonical(args.strings("files"), args.string("cwd"), args.caller());
            List<Map<String, Object>> answers = baton.ledger().read(world -> files.stream().map(file -> {
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("file", file);
                answer.put("held", world.find(LockRows.FILES, file).isPresent());
                world.find(LockRows.FILES, file).ifPresent(lock -> answer.put("lock", Views.lock(baton, world, lock)));
                return answer;
            }).toList());
            Instant now = baton.clock().instant();
            List<String> lines = new ArrayList<>();
            for (Map<String, Object> answer : answers) {
                Views.LockView lock = (Views.LockView) answer.get("lock");
                lines.add(lock == null ? answer.get("file") + " is free"
                        : HeldMessage.of(lock.file(), lock.holder(), now));
            }
            return ToolResult.ok(String.join("\n", lines), Map.of("files", answers));
        }
        String only = args.string("session_id");
        List<Views.LockView> locks = baton.ledger().read(world -> world.rows(LockRows.FILES).stream()
                .filter(lock -> only == null || lock.sessionId().equals(only))
                .sorted(Comparator.comparing(FileLock::file))
                .map(lock -> Views.lock(baton, world, lock))
                .toList());
        List<String> lines = new ArrayList<>();
        locks.forEach(lock -> lines.add(lock.file() + " — " + lock.holder().agent() + " session " + lock.holder().session()
                + (lock.editInFlight() ? " (editing)" : "")));
        return ToolResult.ok(locks.isEmpty() ? "no locks are held" : String.join("\n", lines), Map.of("locks", locks));
    }

    static String cwd(ToolArgs args, Session session) {
        return args.has("cwd") ? args.string("cwd") : session.cwd();
    }

    static List<String> canonical(List<String> files, String cwd, McpCaller caller) {
        return files.stream().map(file -> CanonicalPath.of(file, cwd, caller::self)).toList();
    }

    /** A file as the session would write it: relative to its working directory when inside it. */
    static String shown(Session session, String file) {
        String cwd = session.cwd();
        return cwd != null && file.startsWith(cwd + "/") ? file.substring(cwd.length() + 1) : file;
    }
}
