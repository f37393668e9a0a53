package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.connection.SidecarApi;
import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.protocol.LockInfo;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The supervisor's two actions: force-release a lock and end a session. Each first states exactly what
 * will be freed, then reports what the sidecar did (or why it refused) as one sentence.
 */
public final class SupervisorActions {

    /** What a confirmation asks: a title, the question naming what will be freed, and the button's verb. */
    public record Confirmation(String title, String question, List<String> freed, String confirmLabel) {
    }

    /** A finished action: its sentence, and whether it failed. */
    public record Outcome(String message, boolean failed) {
    }

    /** The warning of a release that hands on work git has not committed. */
    static final String HANDED_ON = " Its uncommitted changes stay in the file: the next holder starts from them"
            + " (see them with git diff).";

    private final SidecarApi api;
    private final Board board;

    public SupervisorActions(SidecarApi api, Board board) {
        this.api = api;
        this.board = board;
    }

    public Confirmation confirmForceRelease(LockRow lock) {
        return new Confirmation("Force-release " + lock.shownFile() + "?",
                "This frees " + lock.file() + ", held by " + lock.holderDescription() + ". The holder keeps running"
                        + " but loses the lock; " + (lock.waiters() == 0 ? "nobody is waiting for it."
                        : lock.waiters() + " waiting session(s) may take it.")
                        + (Boolean.TRUE.equals(lock.uncommitted()) ? HANDED_ON : ""),
                List.of(lock.file()), "Force release");
    }

    /**
     * Freeing a requested file for its requester: a supervisor's force-release, which resolves the request as
     * released (the requester may take the file) and tells the holder at its next call.
     */
    public Confirmation confirmFreeForRequester(NegotiationRow request) {
        return new Confirmation("Free " + request.shownFile() + " for " + request.requester() + "?",
                request.requester() + " asked for " + request.file() + " (" + request.urgency() + ", " + request.status()
                        + "); " + request.holder() + " holds it. This force-releases it: the holder loses the lock and"
                        + " is told at its next call, and the request resolves as released, so the requester may take"
                        + " the file." + (Boolean.TRUE.equals(board.uncommitted(request.file())) ? HANDED_ON : ""),
                List.of(request.file()), "Free it");
    }

    public CompletableFuture<Outcome> freeForRequester(NegotiationRow request) {
        return api.forceRelease(request.file()).handle((done, error) -> {
            if (error != null) {
                return failure("Could not free " + request.shownFile(), error);
            }
            return new Outcome(done.released() ? "Freed " + request.shownFile() + " for " + request.requester() + "."
                    : request.shownFile() + " was already free; the request resolves by itself.", false);
        });
    }

    public Confirmation confirmEndSession(SessionRow session) {
        List<String> files = board.locksOf(session.id()).stream().map(LockInfo::file).sorted().toList();
        List<String> carrying = files.stream().filter(file -> Boolean.TRUE.equals(board.uncommitted(file))).toList();
        String freed = (files.isEmpty() ? "It holds no locks."
                : "This frees its " + files.size() + " lock(s): " + String.join(", ", files) + ".")
                + (carrying.isEmpty() ? "" : " Uncommitted changes stay in " + String.join(", ", carrying)
                + ": their next holders start from them (see them with git diff).");
        return new Confirmation("End session " + session.shortId() + "?",
                "End " + session.agent() + " session " + session.id() + (session.label().isEmpty() ? "" : " (" + session.label() + ")")
                        + ". " + freed + " The agent's process is not stopped; its next hook call registers it again.",
                files, "End session");
    }

    /** The held file's uncommitted changes, as {@code git diff} shows them. */
    public CompletableFuture<String> changesOf(LockRow lock) {
        return api.diff(lock.file());
    }

    /** The held file's audit trail: who took, edited and released it, newest first. */
    public CompletableFuture<String> historyOf(LockRow lock) {
        return api.history(lock.file());
    }

    public CompletableFuture<Outcome> forceRelease(LockRow lock) {
        return api.forceRelease(lock.file()).handle((done, error) -> {
            if (error != null) {
                return failure("Could not force-release " + lock.shownFile(), error);
            }
            if (!done.released()) {
                return new Outcome(lock.shownFile() + " was already free; nothing to release.", false);
            }
            // Named from the row, not the board: this runs on an HTTP thread, the board belongs to the FX thread.
            return new Outcome("Freed " + lock.shownFile() + " (was held by " + lock.holder() + ").", false);
        });
    }

    public CompletableFuture<Outcome> endSession(SessionRow session) {
        return api.endSession(session.id()).handle((done, error) -> {
            if (error != null) {
                return failure("Could not end session " + session.shortId(), error);
            }
            return new Outcome("Ended session " + session.shortId() + "; freed " + done.released().size() + " lock(s).", false);
        });
    }

    private static Outcome failure(String what, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return new Outcome(what + ": " + cause.getMessage(), true);
    }
}
