package dev.baton.lock;

import dev.baton.state.BatonException;
import java.io.File;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Turns any spelling of a file into its lock key: absolute, normalised, with symlinks of the
 * existing part resolved; a file that does not exist yet is its resolved parent plus its name.
 */
public final class CanonicalPath {

    private static final int MAX_LENGTH = 4096;

    private CanonicalPath() {
    }

    /** @param cwd the directory a relative path is relative to; may be null when paths are absolute */
    public static String of(String raw, String cwd) {
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
        if (Files.exists(path)) {
            try {
                // An existing file is the one the system opens: "link/../x" is x beside the link's target,
                // which normalising first (dropping "link/..") would miss, giving one file two keys.
                return path.toRealPath().toString();
            } catch (IOException e) {
                // Gone meanwhile, or not resolvable: key it by its normalised spelling, as below.
            }
        }
        return resolveExisting(path.normalize()).toString();
    }

    private static Path resolveExisting(Path normalised) {
        Deque<Path> missing = new ArrayDeque<>();
        Path existing = normalised;
        // Files.exists answers without an exception: walk up to the first missing name below the deepest
        // existing directory.
        while (existing.getParent() != null && !Files.exists(existing.getParent())) {
            missing.push(existing.getFileName());
            existing = existing.getParent();
        }
        Path real = existing.getParent() == null ? existing : resolveFirstMissing(normalised, existing);
        for (Path name : missing) {
            real = real.resolve(name);
        }
        return real.normalize();
    }

    /**
     * The real spelling of a name whose parent exists: the parent's symlinks resolved, the name kept. java.io's
     * canonical form does this in native code (it resolves the longest prefix that exists and keeps the rest),
     * where {@code toRealPath} on a missing name throws an exception whose stack trace was a tenth of an
     * acquire's CPU. A name below it is asked for so that a symlink loop at {@code name} is an error there too
     * (ELOOP on a prefix), as it is for {@code toRealPath}; the error's reason then comes from the latter.
     */
    private static Path resolveFirstMissing(Path normalised, Path name) {
        try {
            return Path.of(new File(name.toFile(), "child").getCanonicalPath()).getParent();
        } catch (IOException | InvalidPathException e) {
            try {
                name.toRealPath();
            } catch (NoSuchFileException | NotDirectoryException missing) {
                // Not the cause; the reason below is the generic one.
            } catch (FileSystemException loop) {
                // ELOOP (a symlink loop) and the like: the path can never name a real file.
                throw BatonException.invalid("'" + printable(normalised.toString()) + "' cannot be resolved: " + loop.getReason());
            } catch (IOException other) {
                throw BatonException.invalid("'" + printable(normalised.toString()) + "' cannot be resolved: " + other.getMessage());
            }
            throw BatonException.invalid("'" + printable(normalised.toString()) + "' cannot be resolved: " + e.getMessage());
        }
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
