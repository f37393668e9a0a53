package dev.baton.installer.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The copy of an agent's configuration file as it was before Baton first edited it, {@code FILE.baton-backup}
 * beside it: saved once, so later installs never replace the pristine original, and given back by uninstall.
 */
public record ConfigBackup(Path file) {

    public static final String SUFFIX = ".baton-backup";

    public Path path() {
        return file.resolveSibling(file.getFileName() + SUFFIX);
    }

    public boolean exists() {
        return Files.exists(path());
    }

    /** Copies {@code original} (the file, or the target of its symlink) unless a backup is there; true if it did. */
    public boolean saveOnce(Path original) throws IOException {
        if (exists()) {
            return false;
        }
        Files.copy(original, path(), StandardCopyOption.COPY_ATTRIBUTES);
        return true;
    }

    /** The backed-up bytes, or null when there is no backup. */
    public byte[] read() throws IOException {
        return exists() ? Files.readAllBytes(path()) : null;
    }

    public void delete() throws IOException {
        Files.deleteIfExists(path());
    }

    public String name() {
        return path().getFileName().toString();
    }
}
