package dev.baton.shell;

import java.nio.file.Path;

/**
 * A file a command writes (or deletes), a directory it writes anywhere under, or the files a glob matches.
 *
 * @param path absolute and normalised, resolved against the command's working directory at that point; for a glob,
 *             the directory it stays in
 * @param tree whether everything under {@code path} (for a glob: under each path it matches) may be written
 *             ({@code rm -r dir}, {@code prettier --write src})
 * @param part the simple command that writes it, as written
 * @param glob the absolute pattern, for a target the shell or the program expands ({@code rm src/*.orig}); null for a
 *             named path
 */
public record WriteTarget(Path path, boolean tree, String part, String glob) {

    public WriteTarget(Path path, boolean tree, String part) {
        this(path, tree, part, null);
    }
}
