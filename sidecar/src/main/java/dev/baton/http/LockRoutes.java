package dev.baton.http;

import dev.baton.Baton;
import dev.baton.git.GitException;
import dev.baton.git.UncommittedChanges;
import dev.baton.lock.AcquireOutcome;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.CanonicalPath;
import dev.baton.lock.FileLock;
import dev.baton.lock.FreedHolder;
import dev.baton.lock.LockResult;
import dev.baton.lock.LockRows;
import dev.baton.lock.ReleaseOutcome;
import dev.baton.lock.ReleaseReason;
import dev.baton.state.AuditEntry;
import dev.baton.state.BatonException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * File locks over HTTP: acquire, release, list, check, force-release, cleanup, history. Taking and releasing
 * act for a session and need its proof ({@link Callers}): one agent cannot take or free files in another's name.
 * Force-release is the supervisor's (and a negotiation's) way to free someone else's file, and is audited as such.
 */
final class LockRoutes {

    /** The most audit entries one page of a file's history holds. */
    static final int MAX_HISTORY_PAGE = 10_000;

    static final int MAX_FILES = 1000;
    static final int MAX_WAIT_SECONDS = AcquireRequest.MAX_WAIT_SECONDS;

    record AcquireBody(String sessionId, List<String> files, Integer waitSeconds, String cwd) {
    }

    record ReleaseBody(String sessionId, List<String> files, Boolean all, String cwd) {
    }

    /** {@code actor} is what older clients send as their name; it is accepted and not used (see {@link Supervisor}). */
    record ForceReleaseBody(String file, String cwd, String actor) {
    }

    /** Asked only on a person's request (a listing with changes=true, a force-release): git's wait is theirs. */
    private static final UncommittedChanges UNCOMMITTED = new UncommittedChanges(Duration.ofSeconds(5));

    private final Baton baton;

    LockRoutes(Baton baton) {
        this.baton = baton;
    }

    void register(RoutesConfig routes) {
        routes.post("/v1/locks/acquire", this::acquire);
        routes.post("/v1/locks/release", this::release);
        routes.post("/v1/locks/force-release", this::forceRelease);
        routes.get("/v1/locks", this::list);
        routes.get("/v1/locks/check", this::check);
        routes.get("/v1/overlaps", ctx -> Bodies.reply(ctx, Map.of("overlaps", baton.locks().heldInSeveralCopies())));
        routes.post("/v1/cleanup-stale", this::cleanupStale);
        routes.get("/v1/history", this::history);
        routes.get("/v1/locks/diff", this::diff);
    }

    private void acquire(Context ctx) {
        AcquireBody body = Bodies.read(ctx, AcquireBody.class);
        String session = Callers.verify(baton, ctx, body.sessionId()).id();
        List<String> files = canonical(body.files(), body.cwd(), Callers.self(ctx));
        int wait = body.waitSeconds() == null ? 0 : body.waitSeconds();
        if (wait < 0 || wait > MAX_WAIT_SECONDS) {
            throw BatonException.invalid("wait_seconds must be between 0 and " + MAX_WAIT_SECONDS + ", was " + wait);
        }
        AcquireOutcome outcome = baton.locks().acquire(AcquireRequest.explicit(session, files, Duration.ofSeconds(wait)));
        baton.versions().keepBase(session, outcome.results().stream().filter(LockResult::acquired)
                .map(LockResult::file).toList());
        Bodies.reply(ctx, outcome);
    }

    private void release(Context ctx) {
        ReleaseBody body = Bodies.read(ctx, ReleaseBody.class);
        String session = Callers.verify(baton, ctx, body.sessionId()).id();
        boolean all = Boolean.TRUE.equals(body.all());
        if (all && body.files() != null) {
            throw BatonException.invalid("give either 'files' or 'all', not both");
        }
        ReleaseOutcome outcome;
        if (all) {
            outcome = baton.locks().releaseAll(session, ReleaseReason.RELEASED);
        } else {
            if (body.files() == null) {
                throw BatonException.invalid("nothing to release: give 'files' (a non-empty list) or 'all': true");
            }
            outcome = baton.locks().release(session, canonical(body.files(), body.cwd(), Callers.self(ctx)), ReleaseReason.RELEASED);
        }
        Bodies.reply(ctx, outcome);
    }

    private void forceRelease(Context ctx) {
        ForceReleaseBody body = Bodies.read(ctx, ForceReleaseBody.class);
        String actor = Supervisor.require(baton, ctx, "freeing another session's file without a negotiation");
        String file = CanonicalPath.of(body.file(), body.cwd(), Callers.self(ctx));
        Optional<FileLock> freed = baton.locks().forceRelease(file, actor);
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("file", file);
        reply.put("released", freed.isPresent());
        freed.ifPresent(lock -> reply.put("previous_holder", lock.sessionId()));
        if (freed.isPresent()) { // what the next holder finds in the file: the previous holder's work, if uncommitted
            Boolean uncommitted = UNCOMMITTED.of(List.of(file)).get(file);
            if (uncommitted != null) {
                reply.put("uncommitted", uncommitted);
            }
        }
        Bodies.reply(ctx, reply);
    }

    private void list(Context ctx) {
        String session = ctx.queryParam("session_id");
        String under = ctx.queryParam("under");
        String prefix = under == null ? null : CanonicalPath.of(under, null);
        boolean changes = Bodies.booleanQuery(ctx, "changes");
        List<FileLock> held = baton.ledger().read(world -> world.rows(LockRows.FILES).stream()
                .filter(lock -> session == null || lock.sessionId().equals(session))
                .filter(lock -> prefix == null || lock.file().equals(prefix) || lock.file().startsWith(prefix + "/"))
                .sorted(Comparator.comparing(FileLock::file))
                .toList());
        // git runs outside the ledger's read: a slow repository holds up this answer only
        Map<String, Boolean> uncommitted = changes ? UNCOMMITTED.of(held.stream().map(FileLock::file).toList()) : Map.of();
        List<Views.LockView> locks = baton.ledger().read(world -> held.stream()
                .map(lock -> Views.lock(baton, world, lock, uncommitted.get(lock.file())))
                .toList());
        Bodies.reply(ctx, Map.of("locks", locks));
    }

    private void check(Context ctx) {
        String file = CanonicalPath.of(Bodies.requiredQuery(ctx, "file"), ctx.queryParam("cwd"), Callers.self(ctx));
        Boolean uncommitted = Bodies.booleanQuery(ctx, "changes") ? UNCOMMITTED.of(List.of(file)).get(file) : null;
        Optional<Views.LockView> lock = baton.ledger().read(world -> world.find(LockRows.FILES, file)
                .map(l -> Views.lock(baton, world, l, uncommitted)));
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("file", file);
        reply.put("held", lock.isPresent());
        lock.ifPresent(view -> reply.put("lock", view));
        Bodies.reply(ctx, reply);
    }

    private void cleanupStale(Context ctx) {
        List<FreedHolder> freed = baton.locks().cleanupStale();
        List<String> named = baton.namedLocks().cleanupStale();
        Bodies.reply(ctx, Map.of("freed", freed, "named_locks", named));
    }

    /**
     * A page of a file's (or named lock's) audit trail, newest first: {@code limit} entries (at most
     * {@value #MAX_HISTORY_PAGE}) with ids below {@code before}; {@code next_before}, when present, asks for the page
     * after it. No trail is cut short: a busy file's is read a page at a time.
     */
    private void history(Context ctx) {
        String target = ctx.queryParam("name") != null
                ? "name:" + ctx.queryParam("name")
                : CanonicalPath.of(Bodies.requiredQuery(ctx, "file"), ctx.queryParam("cwd"), Callers.self(ctx));
        int limit = Bodies.intQuery(ctx, "limit", 100, 1, MAX_HISTORY_PAGE);
        long before = Bodies.longQuery(ctx, "before", Long.MAX_VALUE, 1, Long.MAX_VALUE);
        // The store has one connection, owned by the writer: read it under the ledger monitor.
        List<AuditEntry> entries = baton.ledger().read(world -> baton.ledger().store().history(target, before, limit + 1));
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("file", target);
        reply.put("entries", entries.size() > limit ? entries.subList(0, limit) : entries);
        if (entries.size() > limit) {
            reply.put("next_before", entries.get(limit - 1).id());
        }
        Bodies.reply(ctx, reply);
    }

    /**
     * {@code GET /v1/locks/diff?file=F}: the file's uncommitted changes as {@code git diff} shows them, what a release
     * would hand on (at most {@link UncommittedChanges#MAX_DIFF_BYTES}, {@code truncated} beyond).
     */
    private void diff(Context ctx) {
        String file = CanonicalPath.of(Bodies.requiredQuery(ctx, "file"), ctx.queryParam("cwd"), Callers.self(ctx));
        UncommittedChanges.Diff diff;
        try {
            diff = UNCOMMITTED.diffOf(file);
        } catch (GitException e) {
            throw BatonException.invalid("no diff of " + file + ": " + e.getMessage());
        }
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("file", file);
        reply.put("diff", diff.text());
        reply.put("truncated", diff.truncated());
        Bodies.reply(ctx, reply);
    }

    static String requireSession(String sessionId) {
        if (sessionId == null || sessionId.isBlank()) {
            throw BatonException.invalid("session_id is required");
        }
        return sessionId;
    }

    static List<String> canonical(List<String> files, String cwd, LongSupplier self) {
        if (files == null || files.isEmpty()) {
            throw BatonException.invalid("'files' must be a non-empty list of paths");
        }
        if (files.size() > MAX_FILES) {
            throw BatonException.invalid("at most " + MAX_FILES + " files per request, got " + files.size());
        }
        return files.stream().map(file -> CanonicalPath.of(file, cwd, self)).toList();
    }
}
