package dev.baton.lock;

import dev.baton.state.BatonException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Turns any spelling of a file into its lock key: absolute, normalised, with symlinks of the
 * existing part resolved; a file that does not exist yet is its resolved parent plus its name.
 *
 * <p>Symlinks are followed here, one name at a time, rather than by the system's {@code realpath}: a path through
 * {@code /proc/self} (or {@code /proc/thread-self}, {@code /dev/fd}, {@code /dev/stdin}…) names the files of whichever
 * process opens it, and {@code realpath} in the sidecar would resolve it as the sidecar's own. Here it is resolved
 * for the process that will write the file (the caller), or refused when that is not known. A key that still lies
 * under {@code /proc} (a pipe, a process of another user) names no file of a repository and is refused.
 */
public final class CanonicalPath {

    private static final int MAX_LENGTH = 4096;
    /** As Linux's own limit on symlinks followed in one path (MAXSYMLINKS). */
    private static final int MAX_LINKS = 40;
    private static final Path ROOT = Path.of("/");
    private static final Path PROC = Path.of("/proc");
    private static final Path DEV = Path.of("/dev");

    private CanonicalPath() {
    }

    /** @param cwd the directory a relative path is relative to; may be null when paths are absolute */
    public static String of(String raw, String cwd) {
        return of(raw, cwd, () -> 0);
    }

    /**
     * @param cwd    the directory a relative path is relative to; may be null when paths are absolute
     * @param caller the pid of the process the path is meant for ({@code /proc/self} is its), asked only when the
     *               path goes through {@code /proc/self}; 0 when it is not known
     */
    public static String of(String raw, String cwd, LongSupplier caller) {
        if (raw == null || raw.isBlank()) {
            throw BatonException.invalid("a file path is empty; give an absolute path or one relative to cwd");
        }
        if (raw.length() > MAX_LENGTH) {
            throw BatonException.invalid("a file path is " + raw.length() + " characters long; the limit is " + MAX_LENGTH);
        }
        if (hasControl(raw) || (cwd != null && hasControl(cwd))) {
            // A newline or an escape sequence in a path would forge lines or move the cursor in every listing.
            String bad = hasControl(raw) ? raw : cwd;
            throw BatonException.invalid("a file path contains " + (bad.indexOf('\0') >= 0 ? "a NUL byte"
                    : "a control character (a newline, a tab, an escape…)") + ": " + printable(bad));
        }
        Path path;
        try {
            path = Path.of(raw);
            if (!path.isAbsolute()) {
                if (cwd == null || cwd.isBlank()) {
                    throw BatonException.invalid("'" + printable(raw) + "' is relative and no cwd was given; send an absolute path or a cwd");
                }
                Path base = Path.of(cwd);
                if (!base.isAbsolute()) {
                    throw BatonException.invalid("cwd '" + printable(cwd) + "' must be absolute");
                }
                path = base.resolve(path);
            }
        } catch (InvalidPathException e) {
            throw BatonException.invalid("'" + printable(raw) + "' is not a valid path: " + e.getReason());
        }
        Path absolute = path;
        Path key = withoutSymlinks(absolute).orElseGet(() -> resolve(absolute, raw, caller));
        if (key.startsWith(PROC)) {
            throw BatonException.invalid("'" + printable(raw) + "' is " + printable(key.toString()) + ", a file of a"
                    + " process rather than a file in a repository (a pipe, a socket, or a process Baton cannot look"
                    + " into); give the file's own path");
        }
        return key.toString();
    }

    /**
     * The usual case, answered by the system's own {@code realpath} (one call): the path, when no name on it is a
     * symlink, so that its real spelling is its normalised one. A path into {@code /proc} or {@code /dev}, one with
     * a symlink on the way (which could lead into {@code /proc/self}), and one with {@code ..} (which a symlink
     * before it would move) are left to {@link #resolve}.
     */
    private static Optional<Path> withoutSymlinks(Path absolute) {
        Path normalised = absolute.normalize();
        if (normalised.startsWith(PROC) || normalised.startsWith(DEV)) {
            return Optional.empty();
        }
        for (Path name : absolute) {
            if (name.toString().equals("..")) {
                return Optional.empty();
            }
        }
        try {
            Path existing = normalised;
            Path firstMissing = null;
            while (existing.getParent() != null && !Files.exists(existing)) { // answers without an exception
                firstMissing = existing;
                existing = existing.getParent();
            }
            // java.io's canonical form resolves in native code, where NIO's toRealPath would throw for a missing name.
            if (!Path.of(new File(existing.toString()).getCanonicalPath()).equals(existing)) {
                return Optional.empty();
            }
            // A name that does not seem to exist may be a symlink to nowhere (or a loop): writing it creates its target.
            return firstMissing != null && Files.isSymbolicLink(firstMissing) ? Optional.empty() : Optional.of(normalised);
        } catch (IOException | InvalidPathException e) {
            return Optional.empty(); // a loop or the like: the walk below says what
        }
    }

    /**
     * The path with every symlink of its existing part followed, {@code ..} taken physically there (so
     * {@code link/../x} is x beside the link's target) and by name below the first missing name, and
     * {@code /proc/self} taken as the caller's.
     */
    private static Path resolve(Path absolute, String raw, LongSupplier caller) {
        Deque<String> names = new ArrayDeque<>();
        absolute.forEach(name -> names.addLast(name.toString()));
        Path current = ROOT;
        boolean missing = false;
        int links = 0;
        while (!names.isEmpty()) {
            String name = names.removeFirst();
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                current = current.getParent() == null ? current : current.getParent();
                continue;
            }
            if (current.equals(PROC) && (name.equals("self") || name.equals("thread-self"))) {
                name = Long.toString(callerOf(raw, caller)); // a thread shares its process's cwd, root and files
            }
            Path next = current.resolve(name);
            if (missing) {
                current = next;
                continue;
            }
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(next, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException | SecurityException absent) {
                // Not there (yet), or not ours to look into: the rest is keyed by its names.
                missing = true;
                current = next;
                continue;
            }
            if (!attributes.isSymbolicLink()) {
                current = next;
                continue;
            }
            if (++links > MAX_LINKS) {
                throw BatonException.invalid("'" + printable(raw) + "' cannot be resolved: too many levels of symbolic links");
            }
            Path target;
            try {
                target = Files.readSymbolicLink(next);
            } catch (IOException | SecurityException | UnsupportedOperationException unreadable) {
                missing = true;
                current = next;
                continue;
            }
            List<String> targetNames = new ArrayList<>();
            target.forEach(part -> targetNames.add(part.toString()));
            for (int i = targetNames.size() - 1; i >= 0; i--) {
                names.addFirst(targetNames.get(i));
            }
            if (target.isAbsolute()) {
                current = ROOT;
            }
        }
        return current;
    }

    private static long callerOf(String raw, LongSupplier caller) {
        long pid = caller.getAsLong();
        if (pid <= 0) {
            throw BatonException.invalid("'" + printable(raw) + "' goes through /proc/self, which names the files of"
                    + " whichever process opens it, and this call's process is not known; give the file's own path");
        }
        return pid;
    }

    private static boolean hasControl(String text) {
        return text.chars().anyMatch(c -> Character.isISOControl(c) || c == '\u2028' || c == '\u2029');
    }

    /** The path as it can be shown on one line: control characters written as escapes. */
    private static String printable(String raw) {
        String shown = raw.length() > 200 ? raw.substring(0, 200) + "…" : raw;
        StringBuilder out = new StringBuilder(shown.length());
        shown.codePoints().forEach(c -> {
            if (c == 0) {
                out.append("\\0");
            } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
