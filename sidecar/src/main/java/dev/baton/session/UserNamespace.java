package dev.baton.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The user namespace a process runs in, as the kernel names it ({@code user:[INODE]}, the link
 * {@code /proc/PID/ns/user}). A process cannot leave the user namespace it runs in for its parent's, and its children
 * are born in it: Baton's shell wrapper runs an agent's command in one of its own making, so whatever that command
 * starts, detached or not, stays marked as the agent's.
 */
public final class UserNamespace {

    private static final Optional<String> OWN = read("self");

    private UserNamespace() {
    }

    /** The sidecar's own (empty where the kernel shows none: not Linux). */
    public static Optional<String> own() {
        return OWN;
    }

    /**
     * Where the process runs when that is not the sidecar's user namespace ("user namespace user:[INODE]", or "a user
     * namespace the sidecar cannot read"), or empty when it is the sidecar's or the kernel shows none here.
     */
    public static Optional<String> otherThanOwn(long pid) {
        if (OWN.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> its = of(pid);
        return OWN.equals(its) ? Optional.empty()
                : Optional.of(its.map(ns -> "user namespace " + ns).orElse("a user namespace the sidecar cannot read"));
    }

    /** The process's, or empty when it exited or its namespaces cannot be read. */
    public static Optional<String> of(long pid) {
        return pid > 0 ? read(Long.toString(pid)) : Optional.empty();
    }

    private static Optional<String> read(String process) {
        try {
            return Optional.of(Files.readSymbolicLink(Path.of("/proc", process, "ns", "user")).toString());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return Optional.empty();
        }
    }
}
