package dev.baton.lock;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A file as the kernel knows it: its device and inode, which every hard link and every bind mount of it share while
 * their paths differ.
 */
record FileIdentity(long device, long inode) {

    /** The identity of the regular file at {@code file}, or empty when there is none (yet) or it cannot be read. */
    static Optional<FileIdentity> of(String file) {
        // java.io's native check first: a file not created yet is the common case, and NIO would answer it with an
        // exception, whose stack trace costs more than the rest of the lookup.
        if (!new File(file).isFile()) {
            return Optional.empty();
        }
        try {
            Map<String, Object> attributes = Files.readAttributes(Path.of(file), "unix:dev,ino");
            return Optional.of(new FileIdentity(((Number) attributes.get("dev")).longValue(),
                    ((Number) attributes.get("ino")).longValue()));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return Optional.empty(); // gone meanwhile, or no unix view here: no alias can be told
        }
    }
}
