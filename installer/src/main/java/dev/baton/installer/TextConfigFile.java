package dev.baton.installer;

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
 * atomically, never over a change made since it was read, owner-only when it holds the sidecar's token.
 */
record TextConfigFile(Path path, byte[] before, String after, List<String> changes, boolean holdsSecret) {

    private static final Set<PosixFilePermission> SHARED_MODE = PosixFilePermissions.fromString("rw-r--r--");
    private static final Set<PosixFilePermission> SECRET_MODE = PosixFilePermissions.fromString("rw-------");

    static byte[] read(Path path) throws InstallerException {
        try {
            return Files.exists(path) ? Files.readAllBytes(path) : null;
        } catch (IOException e) {
            throw new InstallerException("Cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    static String text(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }

    boolean isNoOp() {
        return text(before).equals(after);
    }

    FileStep apply(boolean dryRun) throws IOException, InstallerException {
        if (isNoOp()) {
            return new FileStep("unchanged", path, "");
        }
        String summary = String.join(", ", changes);
        if (dryRun) {
            return new FileStep(before == null ? "would be created" : "would be updated", path, summary);
        }
        Path target = before != null ? path.toRealPath() : path;
        byte[] now = Files.exists(target) ? Files.readAllBytes(target) : null;
        if (!Arrays.equals(now, before)) {
            throw new InstallerException(path + " changed while Baton was editing it; nothing was written to it."
                    + " Run the command again.");
        }
        Set<PosixFilePermission> mode = before != null ? Files.getPosixFilePermissions(target) : SHARED_MODE;
        if (holdsSecret) {
            mode = SECRET_MODE;
        }
        Files.createDirectories(target.getParent());
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
        try {
            Files.writeString(temp, after, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(temp, mode);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        return new FileStep(before == null ? "created" : "updated", path, summary);
    }
}
