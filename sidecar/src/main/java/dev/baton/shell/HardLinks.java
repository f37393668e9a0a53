package dev.baton.shell;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The other names of a held file that has more than one: a hard link made before the file was taken writes the same
 * bytes under another path, which a read-only bind of the held path alone leaves writable. They are looked for where
 * Baton can know of them, the file's working tree (its directory outside one), and remembered while the file's inode
 * and link count stay the same; a link elsewhere (made in /tmp, say) is not found, and a write through it is
 * detected afterwards.
 */
final class HardLinks {

    /** The most entries one search visits: a tree larger than this is searched that far. */
    static final int MOST_ENTRIES = 200_000;

    private record Found(Object inode, int count, List<String> links) {
    }

    private final Map<String, Found> found = new ConcurrentHashMap<>();

    /** The other paths below {@code within} that name the same inode as {@code file}; empty for a file with one. */
    List<String> of(String file, Path within) {
        Path path = Path.of(file);
        Object inode;
        int count;
        try {
            Map<String, Object> unix = Files.readAttributes(path, "unix:nlink,fileKey", LinkOption.NOFOLLOW_LINKS);
            count = ((Number) unix.get("nlink")).intValue();
            inode = unix.get("fileKey");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            found.remove(file);
            return List.of();
        }
        if (count <= 1 || inode == null) {
            found.remove(file);
            return List.of();
        }
        Found known = found.get(file);
        if (known != null && known.inode().equals(inode) && known.count() == count) {
            return known.links();
        }
        List<String> links = search(path, inode, count - 1, within);
        found.put(file, new Found(inode, count, links));
        return links;
    }

    private static List<String> search(Path file, Object inode, int wanted, Path within) {
        List<String> links = new ArrayList<>();
        int[] visited = {0};
        try {
            Files.walkFileTree(within, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    // Git's object store holds no working file's inode, and is most of a large repository's entries.
                    return dir.endsWith(Path.of(".git", "objects")) ? FileVisitResult.SKIP_SUBTREE : more();
                }

                @Override
                public FileVisitResult visitFile(Path candidate, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile() && inode.equals(attrs.fileKey()) && !candidate.equals(file)) {
                        links.add(candidate.toString());
                    }
                    return links.size() >= wanted ? FileVisitResult.TERMINATE : more();
                }

                @Override
                public FileVisitResult visitFileFailed(Path candidate, IOException e) {
                    return more();
                }

                private FileVisitResult more() {
                    return ++visited[0] > MOST_ENTRIES ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // what was found before the failure is kept
        }
        return List.copyOf(links);
    }
}
