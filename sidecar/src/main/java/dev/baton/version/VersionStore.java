package dev.baton.version;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one owner of {@code BATON_HOME/versions/}: each kept content is one file (0600) named by the SHA-256 of its
 * bytes, so the same content kept twice, of one file or of two, is stored once. A file is written whole under a
 * temporary name and renamed into place, so a crash of the sidecar leaves no half of one. Its
 * modification time is when its content was last kept, which the bounds ({@link VersionSettings}) are reckoned from.
 */
public final class VersionStore {

    /** A store that keeps nothing: a domain built without a home (tests of other concerns). */
    public static final VersionStore NONE = new VersionStore(null, VersionSettings.defaults());

    private static final Pattern NAME = Pattern.compile("[0-9a-f]{64}");
    private static final String TEMPORARY = ".tmp-";

    /** A content put: its hash, and the contents the size bound dropped to make room. */
    public record Put(String hash, Set<String> dropped) {
    }

    private final Path dir;
    private final VersionSettings bounds;
    /** Bytes kept, counted at first use and kept up to date; -1 until then. */
    private long total = -1;

    public VersionStore(Path dir, VersionSettings bounds) {
        this.dir = dir;
        this.bounds = bounds;
    }

    public VersionSettings bounds() {
        return bounds;
    }

    /** Whether this store keeps anything. */
    public boolean keeps() {
        return dir != null;
    }

    /** Where the content named {@code hash} is (or was). */
    Path file(String hash) {
        return dir.resolve(hash);
    }

    /** Keeps {@code content} as kept at {@code at}; past the total bound, the oldest other contents go. */
    synchronized Put put(byte[] content, Instant at) throws IOException {
        String hash = sha256(content);
        Path target = file(hash);
        ensureDirectory();
        long before = total();
        if (Files.exists(target)) {
            Files.setLastModifiedTime(target, FileTime.from(at));
            return new Put(hash, Set.of());
        }
        Path temporary = Files.createTempFile(dir, TEMPORARY, "",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                // Not flushed: as durable as the database's commits (WAL, synchronous=NORMAL), which survive the
                // sidecar's crash but not the machine's; a content torn by a power loss fails its hash and is not used.
            }
            Files.setLastModifiedTime(temporary, FileTime.from(at));
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
        total = before + content.length;
        return new Put(hash, total > bounds.maxTotalBytes() ? dropOldest(hash) : Set.of());
    }

    /** The content named {@code hash}; empty when it is no longer kept, or its bytes no longer match their name. */
    synchronized Optional<byte[]> read(String hash) throws IOException {
        if (!keeps() || !NAME.matcher(hash).matches()) {
            return Optional.empty();
        }
        try {
            byte[] content = Files.readAllBytes(file(hash));
            return sha256(content).equals(hash) ? Optional.of(content) : Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /**
     * Drops the contents not kept again since {@code maxAge} before {@code now}, and what a crash left half written;
     * returns the hashes dropped.
     */
    synchronized Set<String> prune(Instant now) throws IOException {
        Set<String> dropped = new LinkedHashSet<>();
        if (!keeps() || !Files.isDirectory(dir)) {
            return dropped;
        }
        Instant oldest = now.minus(bounds.maxAge());
        for (Kept kept : listed()) {
            if (kept.keptAt.isBefore(oldest) && Files.deleteIfExists(kept.path)) {
                dropped.add(kept.hash);
                total -= kept.size;
            }
        }
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(dir, TEMPORARY + "*")) {
            for (Path leftover : leftovers) {
                if (Files.getLastModifiedTime(leftover).toInstant().isBefore(oldest)) {
                    Files.deleteIfExists(leftover);
                }
            }
        }
        return dropped;
    }

    /** The oldest contents but {@code keep}, until the total is within its bound. */
    private Set<String> dropOldest(String keep) throws IOException {
        Set<String> dropped = new LinkedHashSet<>();
        List<Kept> byAge = new ArrayList<>(listed());
        byAge.sort(Comparator.comparing((Kept kept) -> kept.keptAt).thenComparing(kept -> kept.hash));
        for (Kept kept : byAge) {
            if (total <= bounds.maxTotalBytes()) {
                break;
            }
            if (!kept.hash.equals(keep) && Files.deleteIfExists(kept.path)) {
                dropped.add(kept.hash);
                total -= kept.size;
            }
        }
        return dropped;
    }

    private record Kept(String hash, Path path, long size, Instant keptAt) {
    }

    private List<Kept> listed() throws IOException {
        List<Kept> kept = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path path : files) {
                String name = path.getFileName().toString();
                if (NAME.matcher(name).matches()) {
                    try {
                        kept.add(new Kept(name, path, Files.size(path), Files.getLastModifiedTime(path).toInstant()));
                    } catch (NoSuchFileException e) {
                        // removed meanwhile
                    }
                }
            }
        }
        return kept;
    }

    private long total() throws IOException {
        if (total < 0) {
            total = listed().stream().mapToLong(Kept::size).sum();
        }
        return total;
    }

    private void ensureDirectory() throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
    }

    static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
