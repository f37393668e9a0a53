package dev.baton.installer;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/** The sidecar's bearer token in {@code BATON_HOME/token}, created here the way the sidecar does if it is missing. */
final class TokenFile {

    private static final int TOKEN_BYTES = 32;

    private final Path batonHome;

    TokenFile(Path batonHome) {
        this.batonHome = batonHome;
    }

    Path path() {
        return batonHome.resolve("token");
    }

    Optional<String> read() throws IOException {
        if (!Files.exists(path())) {
            return Optional.empty();
        }
        return Optional.of(Files.readString(path(), StandardCharsets.UTF_8).strip());
    }

    String readOrCreate() throws IOException {
        Optional<String> existing = read();
        if (existing.isPresent()) {
            return existing.get();
        }
        Files.createDirectories(batonHome, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        byte[] secret = new byte[TOKEN_BYTES];
        new SecureRandom().nextBytes(secret);
        String token = HexFormat.of().formatHex(secret);
        // The mode is set at creation so the secret is never readable by others, not even for a moment.
        try (SeekableByteChannel channel = Files.newByteChannel(path(),
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            channel.write(ByteBuffer.wrap(token.getBytes(StandardCharsets.US_ASCII)));
        } catch (FileAlreadyExistsException e) {
            return read().orElseThrow(); // the sidecar created it at the same moment; its token wins
        }
        return token;
    }
}
