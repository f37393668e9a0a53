package dev.baton.hook;

import dev.baton.session.ProcessIdentity;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the agent behind a hook: the hook script's parent is usually a shell the agent started for it, so
 * the walk goes up from there to the first process that is not a shell or a command wrapper. Its pid and
 * start instant identify the session's process for liveness.
 */
final class AgentProcess {

    /** Programs that only run other programs; the agent is above them. */
    private static final Set<String> WRAPPERS = Set.of(
            "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "tcsh", "csh", "busybox",
            "env", "timeout", "nohup", "setsid", "nice", "stdbuf", "time", "xargs");

    /** How far up to look; process trees of agents are shallow, and a loop must not be possible. */
    private static final int MAX_DEPTH = 16;

    private AgentProcess() {
    }

    /** @param ppid the hook script's parent pid ({@code $PPID}) */
    static Optional<ProcessIdentity> above(long ppid) {
        if (ppid <= 1) {
            return Optional.empty();
        }
        Optional<ProcessHandle> current = ProcessHandle.of(ppid);
        for (int depth = 0; depth < MAX_DEPTH && current.isPresent(); depth++) {
            ProcessHandle handle = current.get();
            if (!isWrapper(handle)) {
                return Optional.of(new ProcessIdentity(handle.pid(), handle.info().startInstant().orElse(null)));
            }
            Optional<ProcessHandle> parent = handle.parent();
            if (parent.isEmpty() || parent.get().pid() <= 1) {
                return Optional.of(new ProcessIdentity(handle.pid(), handle.info().startInstant().orElse(null)));
            }
            current = parent;
        }
        return Optional.empty();
    }

    private static boolean isWrapper(ProcessHandle handle) {
        return handle.info().command()
                .map(command -> Path.of(command).getFileName())
                .map(name -> WRAPPERS.contains(name.toString()))
                .orElse(false);
    }
}
