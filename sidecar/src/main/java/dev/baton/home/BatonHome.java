package dev.baton.home;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The sidecar's directory ({@code BATON_HOME}, default {@code $XDG_STATE_HOME/baton}) and the files
 * through which hooks and the CLI find it: {@code endpoint}, {@code token}, {@code sidecar.pid}.
 */
public final class BatonHome {

    public static final int DEFAULT_PORT = 7433;

    private final Path dir;

    public BatonHome(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    /** BATON_HOME, else $XDG_STATE_HOME/baton, else ~/.local/state/baton. */
    public static BatonHome fromEnvironment(Map<String, String> env) {
        String explicit = env.get("BATON_HOME");
        if (explicit != null && !explicit.isBlank()) {
            return new BatonHome(Path.of(explicit));
        }
        String state = env.get("XDG_STATE_HOME");
        if (state != null && !state.isBlank()) {
            return new BatonHome(Path.of(state, "baton"));
        }
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        return new BatonHome(Path.of(home, ".local", "state", "baton"));
    }

    public Path dir() {
        return dir;
    }

    public Path database() {
        return dir.resolve("baton.db");
    }

    public Path endpointFile() {
        return dir.resolve("endpoint");
    }

    public Path tokenFile() {
        return dir.resolve("token");
    }

    /** The supervisor's credential: the dashboard and {@code baton … --supervisor} send it instead of the token. */
    public Path supervisorTokenFile() {
        return dir.resolve("supervisor-token");
    }

    public Path pidFile() {
        return dir.resolve("sidecar.pid");
    }

    public Path logFile() {
        return dir.resolve("sidecar.log");
    }

    public Path lockFile() {
        return dir.resolve("sidecar.lock");
    }

    /** Creates the directory owner-only, or refuses one that others may write (they could swap the token). */
    public void prepare() throws IOException {
        if (!Files.exists(dir)) {
            Files.createDirectories(dir.getParent());
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (FileAlreadyExistsException raced) {
                // another process created it first; the check below still applies
            }
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(dir);
        if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IOException(dir + " is writable by other users (" + PosixFilePermissions.toString(permissions)
                    + "); run `chmod 700 " + dir + "` and start again");
        }
    }

    /** The token, created on first use: 32 random bytes, hex, in a file that only the owner can read. */
    public String ensureToken() throws IOException {
        return ensureSecret(tokenFile());
    }

    public String ensureSupervisorToken() throws IOException {
        return ensureSecret(supervisorTokenFile());
    }

    public Optional<String> readSupervisorToken() throws IOException {
        return readSecret(supervisorTokenFile());
    }

    private String ensureSecret(Path file) throws IOException {
        if (!Files.exists(file)) {
            byte[] bytes = new byte[32];
            new SecureRandom().nextBytes(bytes);
            Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(temp, HexFormat.of().formatHex(bytes) + "\n", StandardCharsets.US_ASCII);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException raced) {
                Files.deleteIfExists(temp);
            }
        }
        return readSecret(file).orElseThrow(() -> new IOException("the token file " + file + " is empty"));
    }

    public Optional<String> readToken() throws IOException {
        return readSecret(tokenFile());
    }

    private Optional<String> readSecret(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        String token = Files.readString(file, StandardCharsets.US_ASCII).trim();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }

    /** host:port from the endpoint file, present only while a sidecar is serving. */
    public Optional<String> readEndpoint() throws IOException {
        Path file = endpointFile();
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        String endpoint = Files.readString(file, StandardCharsets.US_ASCII).trim();
        return endpoint.isEmpty() ? Optional.empty() : Optional.of(endpoint);
    }

    /** Writes a small file whole or not at all, so a reader never sees half of it. */
    public void writeAtomically(Path file, String content) throws IOException {
        Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        Files.writeString(temp, content, StandardCharsets.US_ASCII);
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
