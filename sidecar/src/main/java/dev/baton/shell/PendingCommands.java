package dev.baton.shell;

import dev.baton.session.ProcessIdentity;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The shell commands agents announced and whose end is still to come, per session, until the end is seen: its
 * PostToolUse (or PostToolUseFailure), the wrapper's report that it ended (a background command's PostToolUse comes
 * when it starts), the session's next command when the agent sends no tool call id, or the turn's end.
 */
final class PendingCommands {

    /** One announced command and what its end is checked against. */
    static final class Pending {
        final ShellCommand command;
        final AfterCheck.Before before;
        final List<String> taken;
        final List<IndexTurns.Turn> turns;
        /**
         * Whether the wrapper reports the end: for a command whose PostToolUse comes when it starts (background), or
         * never (an agent that sends no PostToolUse for its shell commands).
         */
        final boolean endReported;
        /** The wrapper's run of this command, once the wrapper asked which files to protect for it. */
        volatile String runId;
        /** The wrapper's process (it waits for the command), while the run is known. */
        volatile ProcessIdentity wrapper;
        /** The files made read-only for the command: a change to one while it ran was its holder's. */
        volatile Set<String> protectedFiles = Set.of();

        Pending(ShellCommand command, AfterCheck.Before before, List<String> taken, List<IndexTurns.Turn> turns,
                boolean endReported) {
            this.command = command;
            this.before = before;
            this.taken = List.copyOf(taken);
            this.turns = List.copyOf(turns);
            this.endReported = endReported;
        }

        /** Whether its end brings anything to do: a comparison with the moment it started, files or turns to end. */
        boolean checksAfter() {
            return before.compares() || !taken.isEmpty() || !turns.isEmpty();
        }
    }

    private final Map<String, Deque<Pending>> bySession = new ConcurrentHashMap<>();

    void add(Pending pending) {
        bySession.computeIfAbsent(pending.command.sessionId(), id -> new ConcurrentLinkedDeque<>()).add(pending);
    }

    /**
     * The command a PostToolUse ends: the first with that tool call id (the first of all when the agent sends none).
     * A background command is left in place: its PostToolUse comes when it starts.
     */
    Optional<Pending> takeEnded(String sessionId, String toolUseId) {
        Deque<Pending> queue = bySession.get(sessionId);
        if (queue == null) {
            return Optional.empty();
        }
        for (Pending candidate : queue) {
            if (toolUseId == null || toolUseId.equals(candidate.command.toolUseId())) {
                if (candidate.command.background() || !queue.remove(candidate)) {
                    return Optional.empty();
                }
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Every command of the session the agent cannot match to its end (it sends no tool call id). */
    List<Pending> takeUnmatched(String sessionId) {
        List<Pending> taken = new ArrayList<>();
        Deque<Pending> queue = bySession.get(sessionId);
        if (queue != null) {
            for (Pending entry : List.copyOf(queue)) {
                if (entry.command.toolUseId() == null && queue.remove(entry)) {
                    taken.add(entry);
                }
            }
        }
        return taken;
    }

    /** Every command of the session and of its subagents ({@code SESSION/…}). */
    List<Pending> takeAll(String sessionId) {
        List<Pending> taken = new ArrayList<>();
        for (String id : List.copyOf(bySession.keySet())) {
            if (id.equals(sessionId) || id.startsWith(sessionId + "/")) {
                Deque<Pending> queue = bySession.remove(id);
                if (queue != null) {
                    taken.addAll(queue);
                }
            }
        }
        return taken;
    }

    /**
     * Ties a wrapper's run to the command it runs: the one with the agent's tool call id, or else the one whose text
     * is inside what the wrapper runs (Claude Code runs it inside {@code eval '…'}, each ' written '"'"'). Returns the
     * new run's id and the command, when one matched.
     */
    Optional<Pending> startRun(Set<String> sessions, String callId, String wrapped, String runId, ProcessIdentity wrapper) {
        for (String sessionId : sessions) {
            Deque<Pending> queue = bySession.get(sessionId);
            if (queue == null) {
                continue;
            }
            for (Pending candidate : queue) {
                if (candidate.runId == null && runs(candidate, callId, wrapped)) {
                    candidate.runId = runId;
                    candidate.wrapper = wrapper;
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private static boolean runs(Pending candidate, String callId, String wrapped) {
        if (callId != null && !callId.isBlank()) {
            return callId.equals(candidate.command.toolUseId());
        }
        String text = candidate.command.text();
        return wrapped != null && (wrapped.contains(text) || wrapped.contains(text.replace("'", "'\"'\"'")));
    }

    /** Records which files were read-only for a run's command. */
    void protect(String runId, List<String> files) {
        for (Deque<Pending> queue : bySession.values()) {
            for (Pending candidate : queue) {
                if (runId.equals(candidate.runId)) {
                    candidate.protectedFiles = Set.copyOf(files);
                }
            }
        }
    }

    /**
     * Narrows the files read-only for a run's command to those {@code still} keeps: a file its binder had to bind
     * again, or that was writable for a while, may have been changed by the command.
     */
    void narrow(String runId, java.util.function.Predicate<String> still) {
        for (Deque<Pending> queue : bySession.values()) {
            for (Pending candidate : queue) {
                if (runId.equals(candidate.runId)) {
                    candidate.protectedFiles = candidate.protectedFiles.stream().filter(still)
                            .collect(java.util.stream.Collectors.toUnmodifiableSet());
                }
            }
        }
    }

    /** The command of a run, taken out: its wrapper reported its end. */
    Optional<Pending> takeRun(String runId) {
        for (Deque<Pending> queue : bySession.values()) {
            for (Pending candidate : queue) {
                if (runId.equals(candidate.runId) && queue.remove(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    static String newRunId() {
        return UUID.randomUUID().toString();
    }
}
