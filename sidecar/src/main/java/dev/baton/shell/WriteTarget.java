package dev.baton.shell;

import java.nio.file.Path;

/**
 * A file a command writes (or deletes), or a directory it writes anywhere under.
 *
 * @param path absolute and normalised, resolved against the command's working directory at that point
 * @param tree whether everything under {@code path} may be written ({@code rm -r dir}, {@code prettier --write src})
 * @param part the simple command that writes it, as written
 */
public record WriteTarget(Path path, boolean tree, String part) {
}
