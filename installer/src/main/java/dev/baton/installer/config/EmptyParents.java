package dev.baton.installer.config;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The directories that deleting one of Baton's files left empty ({@code ~/.copilot/hooks/} once {@code baton.json}
 * is gone), removed from the file's parent upwards, never reaching the boundary that holds them (the user's home, the
 * project): an uninstall leaves no trace, and a directory with anything in it stays.
 */
public final class EmptyParents {

    private EmptyParents() {
    }

    /** Removes the empty directories above {@code deleted} inside the nearest of {@code boundaries}; one step each. */
    public static List<FileStep> remove(Path deleted, List<Path> boundaries) throws IOException {
        Path file = deleted.toAbsolutePath().normalize();
        Optional<Path> boundary = boundaries.stream()
                .map(path -> path.toAbsolutePath().normalize())
                .filter(path -> file.startsWith(path) && !file.equals(path))
                .max(Comparator.comparingInt(Path::getNameCount));
        List<FileStep> steps = new ArrayList<>();
        if (boundary.isEmpty()) {
            return steps;
        }
        for (Path dir = file.getParent(); dir != null && !dir.equals(boundary.get()); dir = dir.getParent()) {
            if (!isEmptyDirectory(dir)) {
                break;
            }
            Files.delete(dir);
            steps.add(new FileStep("deleted", dir, "empty directory"));
        }
        return steps;
    }

    private static boolean isEmptyDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            return !entries.iterator().hasNext();
        }
    }
}
