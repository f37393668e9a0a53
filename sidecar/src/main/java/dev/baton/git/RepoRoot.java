package dev.baton.git;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds the working tree a path belongs to: the nearest ancestor holding {@code .git} (a directory, or a file for worktrees). */
public final class RepoRoot {

    private RepoRoot() {
    }

    public static Optional<Path> of(Path path) {
        Path dir = Files.isDirectory(path) ? path : path.getParent();
        while (dir != null) {
            if (Files.exists(dir.resolve(".git"))) {
                return Optional.of(dir);
            }
            dir = dir.getParent();
        }
        return Optional.empty();
    }
}
