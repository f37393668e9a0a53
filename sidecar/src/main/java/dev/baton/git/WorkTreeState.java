package dev.baton.git;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Git's view of a working tree at one moment: every entry of {@code git status --porcelain=v2 -z} (staged,
 * unstaged, untracked) and, for files whose content differs from the index, a hash of that content, so that a
 * second change to an already dirty file shows too. Two states compared tell which files changed in between.
 * Git reuses its untracked cache and fsmonitor when the repository enables them.
 */
public final class WorkTreeState {

    /** Files above this size are fingerprinted by size and modification time instead of their content. */
    private static final long HASHED_SIZE_LIMIT = 32L << 20;

    private final Path root;
    private final Map<Path, String> entries;
    private final Set<Path> staged;
    private final Set<Path> unstaged;
    private final Set<Path> untracked;

    private WorkTreeState(Path root, Map<Path, String> entries, Set<Path> staged, Set<Path> unstaged, Set<Path> untracked) {
        this.root = root;
        this.entries = entries;
        this.staged = staged;
        this.unstaged = unstaged;
        this.untracked = untracked;
    }

    public static WorkTreeState of(Path root, Duration timeout) throws GitException {
        byte[] status = GitProcess.run(root, timeout, "status", "--porcelain=v2", "-z", "--untracked-files=all",
                "--no-renames", "--ignore-submodules=dirty");
        return parse(root, status);
    }

    static WorkTreeState parse(Path root, byte[] porcelain) {
        Map<Path, String> entries = new HashMap<>();
        Set<Path> staged = new HashSet<>();
        Set<Path> unstaged = new HashSet<>();
        Set<Path> untracked = new HashSet<>();
        for (String entry : new String(porcelain, StandardCharsets.UTF_8).split("\0")) {
            if (entry.length() < 3) {
                continue;
            }
            char kind = entry.charAt(0);
            String path;
            if (kind == '?') {
                path = entry.substring(2);
                Path file = root.resolve(path).normalize();
                untracked.add(file);
                entries.put(file, "? " + fingerprint(file));
                continue;
            }
            int fields = kind == '1' ? 8 : kind == 'u' ? 10 : -1;
            if (fields < 0) {
                continue; // '!' ignored, '#' headers, '2' cannot occur with --no-renames
            }
            int at = 0;
            for (int i = 0; i < fields && at >= 0; i++) {
                at = entry.indexOf(' ', at + 1);
            }
            if (at < 0) {
                continue;
            }
            path = entry.substring(at + 1);
            Path file = root.resolve(path).normalize();
            char x = entry.charAt(2);
            char y = entry.charAt(3);
            if (x != '.') {
                staged.add(file);
            }
            if (y != '.') {
                unstaged.add(file);
            }
            String header = entry.substring(0, at);
            entries.put(file, y != '.' && y != 'D' ? header + " " + fingerprint(file) : header);
        }
        return new WorkTreeState(root, entries, staged, unstaged, untracked);
    }

    private static String fingerprint(Path file) {
        try {
            long size = Files.size(file);
            if (size > HASHED_SIZE_LIMIT || !Files.isRegularFile(file)) {
                return size + "@" + Files.getLastModifiedTime(file).toMillis();
            }
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (InputStream in = Files.newInputStream(file)) {
                byte[] buffer = new byte[64 * 1024];
                for (int read; (read = in.read(buffer)) > 0; ) {
                    digest.update(buffer, 0, read);
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            return "unreadable";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    public Path root() {
        return root;
    }

    /** Files with a change in the index (against HEAD). */
    public Set<Path> staged() {
        return Set.copyOf(staged);
    }

    /** Tracked files whose working copy differs from the index. */
    public Set<Path> unstaged() {
        return Set.copyOf(unstaged);
    }

    public Set<Path> untracked() {
        return Set.copyOf(untracked);
    }

    /** Every file with any change: staged, unstaged or untracked. */
    public Set<Path> dirty() {
        return Set.copyOf(entries.keySet());
    }

    /** The files whose state differs between {@code earlier} and this one: written, deleted, reverted, staged. */
    public Set<Path> changedSince(WorkTreeState earlier) {
        Set<Path> changed = new HashSet<>();
        Set<Path> all = new HashSet<>(entries.keySet());
        all.addAll(earlier.entries.keySet());
        for (Path path : all) {
            if (!Objects.equals(entries.get(path), earlier.entries.get(path))) {
                changed.add(path);
            }
        }
        return changed;
    }

    /**
     * Whether a file carries changes git has not committed (staged, unstaged, or the whole file untracked); false
     * for a file in no repository, or when git cannot tell in time.
     */
    public static boolean hasChanges(Path file, Duration timeout) {
        Optional<Path> root = RepoRoot.of(file);
        if (root.isEmpty()) {
            return false;
        }
        try {
            return GitProcess.run(root.get(), timeout, "status", "--porcelain", "-z", "--untracked-files=all", "--",
                    root.get().relativize(file).toString()).length > 0;
        } catch (GitException e) {
            return false;
        }
    }

    /** Files that differ between the commits {@code from} and {@code to}: what a checkout of {@code to} rewrites. */
    public static Set<Path> filesBetween(Path root, String from, String to, Duration timeout) throws GitException {
        if (to.startsWith("-") || from.startsWith("-")) {
            throw new GitException("not a revision: " + to);
        }
        byte[] names = GitProcess.run(root, timeout, "diff", "--name-only", "-z", "--no-renames", from, to, "--");
        Set<Path> files = new HashSet<>();
        for (String name : new String(names, StandardCharsets.UTF_8).split("\0")) {
            if (!name.isEmpty()) {
                files.add(root.resolve(name).normalize());
            }
        }
        return files;
    }
}
