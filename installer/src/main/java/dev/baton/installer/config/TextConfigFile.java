package dev.baton.installer.config;

import dev.baton.installer.layout.InstallerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A planned textual change to a configuration file that is not JSON (Codex's {@code config.toml}): written
 * atomically, never over a change made since it was read, owner-only when it holds the sidecar's token, and with
 * the pristine original saved once ({@link ConfigBackup}) as for every file Baton edits.
 */
public record TextConfigFile(Path path, byte[] before, String after, List<String> changes, boolean holdsSecret) {

    private static final Set<PosixFilePermission> SHARED_MODE = PosixFilePermissions.fromString("rw-r--r--");
    private static final Set<PosixFilePermission> SECRET_MODE = PosixFilePermissions.fromString("rw-------");

    public static byte[] read(Path path) throws InstallerException {
        try {
            return Files.exists(path) ? Files.readAllBytes(path) : null;
        } catch (IOException e) {
            throw new InstallerException("Cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    public static String text(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }

    public boolean isNoOp() {
        return text(before).equals(after);
    }

    public ConfigBackup backup() {
        return new ConfigBackup(path);
    }

    /** Install's write: the file as it was is saved once before Baton's first change to it. */
    public FileStep apply(boolean dryRun) throws IOException, InstallerException {
        if (isNoOp()) {
            return new FileStep("unchanged", path, "");
        }
        String summary = String.join(", ", changes);
        if (dryRun) {
            return new FileStep(before == null ? "would be created" : "would be updated", path, summary);
        }
        Path target = unchangedTarget();
        if (before != null && backup().saveOnce(target)) {
            summary += "; original saved as " + backup().name();
        }
        replace(target, after.getBytes(StandardCharsets.UTF_8));
        return new FileStep(before == null ? "created" : "updated", path, summary);
    }

    /**
     * Uninstall's write: a file that is back to its saved original gets those bytes and loses the backup; one Baton
     * created and left empty is deleted; any other keeps the user's later changes, and its backup is retired.
     */
    public FileStep applyRemoval(boolean dryRun) throws IOException, InstallerException {
        if (isNoOp()) {
            return new FileStep("unchanged", path, "");
        }
        String summary = String.join(", ", changes);
        byte[] original = backup().read();
        boolean deletes = original == null && after.isBlank() && before != null;
        if (dryRun) {
            return new FileStep(deletes ? "would be deleted" : "would be updated", path, summary);
        }
        Path target = unchangedTarget();
        if (deletes) {
            Files.delete(target); // nothing but Baton's tables was in it
            return new FileStep("deleted", path, summary);
        }
        if (original != null && text(original).equals(after)) {
            replace(target, original);
            backup().delete();
            return new FileStep("restored", path, summary + "; original bytes restored from " + backup().name());
        }
        replace(target, after.getBytes(StandardCharsets.UTF_8));
        if (original != null) {
            backup().delete();
            summary += "; backup " + backup().name() + " removed, no longer needed";
        }
        return new FileStep("updated", path, summary);
    }

    /** The file to write (the target of a symlinked dotfile), once it is known to hold what was read. */
    private Path unchangedTarget() throws IOException, InstallerException {
        Path target = before != null ? path.toRealPath() : path;
        byte[] now = Files.exists(target) ? Files.readAllBytes(target) : null;
        if (!Arrays.equals(now, before)) {
            throw new InstallerException(path + " changed while Baton was editing it; nothing was written to it."
                    + " Run the command again.");
        }
        return target;
    }

    private void replace(Path target, byte[] content) throws IOException {
        Set<PosixFilePermission> mode = before != null ? Files.getPosixFilePermissions(target) : SHARED_MODE;
        if (holdsSecret) {
            mode = SECRET_MODE;
        }
        Files.createDirectories(target.getParent());
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
        try {
            Files.write(temp, content);
            Files.setPosixFilePermissions(temp, mode);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
    }
}
