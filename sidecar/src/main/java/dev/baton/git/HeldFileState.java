package dev.baton.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Files at one moment, wherever they are (in a repository, ignored by it, in a nested one, outside any): each file's
 * identity on disk (inode, size, modification and change times: the kernel sets the change time on every write,
 * rename or chmod, and no program can set it back), and for a file in a repository its entry in the index and in
 * HEAD. Two moments compared tell which of the files changed, and where. Reading the index and HEAD costs a git run
 * per repository only when the index or HEAD itself changed since the last look: a repository's entries are kept
 * with the identity of its index file and the commit HEAD names.
 */
public final class HeldFileState {

    /** What changed of one file between two moments. */
    public enum Where {
        WORKING_TREE("working copy"), INDEX("staged copy"), HEAD("committed copy");

        private final String shown;

        Where(String shown) {
            this.shown = shown;
        }

        public String shown() {
            return shown;
        }
    }

    private final Map<String, String> disk;
    private final Map<String, String> index;
    private final Map<String, String> head;

    private HeldFileState(Map<String, String> disk, Map<String, String> index, Map<String, String> head) {
        this.disk = disk;
        this.index = index;
        this.head = head;
    }

    /** An empty moment: no files. */
    public static HeldFileState none() {
        return new HeldFileState(Map.of(), Map.of(), Map.of());
    }

    /** For each file, what changed between {@code earlier} and this moment (files of both moments). */
    public Map<String, List<Where>> changedSince(HeldFileState earlier) {
        Map<String, List<Where>> changed = new TreeMap<>();
        for (String file : earlier.disk.keySet()) {
            List<Where> where = new ArrayList<>();
            if (disk.containsKey(file) && !Objects.equals(disk.get(file), earlier.disk.get(file))) {
                where.add(Where.WORKING_TREE);
            }
            if (index.containsKey(file) && earlier.index.containsKey(file)
                    && !Objects.equals(index.get(file), earlier.index.get(file))) {
                where.add(Where.INDEX);
            }
            if (head.containsKey(file) && earlier.head.containsKey(file)
                    && !Objects.equals(head.get(file), earlier.head.get(file))) {
                where.add(Where.HEAD);
            }
            if (!where.isEmpty()) {
                changed.put(file, where);
            }
        }
        return changed;
    }

    /** Reads the state of {@code files}, using {@code cache} for the index and HEAD entries of their repositories. */
    public static HeldFileState of(Collection<String> files, Cache cache, Duration gitTimeout) {
        Map<String, String> disk = new HashMap<>();
        Map<Path, List<String>> byRepo = new LinkedHashMap<>();
        for (String file : files) {
            Path path = Path.of(file);
            disk.put(file, identity(path));
            RepoRoot.of(path).ifPresent(root -> byRepo.computeIfAbsent(root, r -> new ArrayList<>()).add(file));
        }
        Map<String, String> index = new HashMap<>();
        Map<String, String> head = new HashMap<>();
        byRepo.forEach((root, inRepo) -> {
            Optional<RepoState> state = cache.of(root, inRepo, gitTimeout);
            state.ifPresent(repo -> inRepo.forEach(file -> {
                String relative = root.relativize(Path.of(file)).toString();
                index.put(file, repo.index.getOrDefault(relative, "absent"));
                head.put(file, repo.head.getOrDefault(relative, "absent"));
            }));
        });
        return new HeldFileState(disk, index, head);
    }

    /** A file's identity on disk, or "absent". */
    static String identity(Path file) {
        try {
            Map<String, Object> attributes = Files.readAttributes(file, "unix:ino,size,lastModifiedTime,ctime,mode",
                    LinkOption.NOFOLLOW_LINKS);
            return attributes.get("ino") + "/" + attributes.get("size") + "/" + attributes.get("lastModifiedTime") + "/"
                    + attributes.get("ctime") + "/" + attributes.get("mode");
        } catch (NoSuchFileException e) {
            return "absent";
        } catch (IOException | UnsupportedOperationException e) {
            return "unreadable";
        }
    }

    /** One repository's index and HEAD entries for some files, with what they were read at. */
    private record RepoState(String indexIdentity, String headIdentity, Map<String, String> index, Map<String, String> head) {
    }

    /**
     * The index and HEAD entries last read per repository, valid while the index file and HEAD are the same: most
     * commands touch neither, so most moments cost no git run.
     */
    public static final class Cache {

        private final Map<Path, RepoState> repos = new ConcurrentHashMap<>();

        Optional<RepoState> of(Path root, List<String> files, Duration timeout) {
            Optional<Path> gitDir = GitDir.of(root);
            if (gitDir.isEmpty()) {
                return Optional.empty();
            }
            String indexIdentity = identity(gitDir.get().resolve("index"));
            String headIdentity = GitDir.head(gitDir.get());
            List<String> relative = files.stream().map(file -> root.relativize(Path.of(file)).toString()).toList();
            RepoState known = repos.get(root);
            if (known != null && known.indexIdentity.equals(indexIdentity) && known.headIdentity.equals(headIdentity)
                    && known.index.keySet().containsAll(relative)) {
                return Optional.of(known);
            }
            try {
                Map<String, String> index = entries(GitProcess.run(root, timeout, with("ls-files", "-s", "-z", relative)), relative);
                Map<String, String> head = headIdentity.equals("no-commit") ? absent(relative) : headEntries(root, timeout, relative);
                // What was read after the identities were taken: a change meanwhile only makes the next look read again.
                RepoState state = new RepoState(indexIdentity, headIdentity, index, head);
                repos.put(root, state);
                return Optional.of(state);
            } catch (GitException e) {
                return Optional.empty();
            }
        }

        private static Map<String, String> headEntries(Path root, Duration timeout, List<String> relative) {
            try {
                return entries(GitProcess.run(root, timeout, with("ls-tree", "-z", "HEAD", relative)), relative);
            } catch (GitException e) {
                return absent(relative); // HEAD names no commit yet
            }
        }

        private static String[] with(String command, String option, String more, List<String> files) {
            List<String> args = new ArrayList<>(List.of(command, option, more, "--"));
            args.addAll(files);
            return args.toArray(String[]::new);
        }

        /** {@code ls-files -s} and {@code ls-tree} lines: "MODE OBJECT STAGE\tPATH", "MODE TYPE OBJECT\tPATH". */
        private static Map<String, String> entries(byte[] output, List<String> asked) {
            Map<String, String> entries = absent(asked);
            for (String line : new String(output, StandardCharsets.UTF_8).split("\0")) {
                int tab = line.indexOf('\t');
                if (tab > 0) {
                    String path = line.substring(tab + 1);
                    entries.merge(path, line.substring(0, tab), (old, added) -> old.equals("absent") ? added : old + "," + added);
                }
            }
            return entries;
        }

        private static Map<String, String> absent(List<String> files) {
            Map<String, String> entries = new HashMap<>();
            files.forEach(file -> entries.put(file, "absent"));
            return entries;
        }
    }
}
