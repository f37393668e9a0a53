package dev.baton.home;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Reads a SQLite write-ahead log without opening the database, to tell whether it still holds every commit. SQLite
 * itself never says: it stops at the first frame whose checksum fails and treats the rest, committed or not, as never
 * written. No library exposes this check, so the formats (https://www.sqlite.org/walformat.html) are read here: the
 * log is a 32-byte header, then frames of a 24-byte header and one page, each checksummed over all the frames before
 * it; its shared-memory index ({@code -wal}'s sibling {@code -shm}) counts the frames of the last commit
 * ({@code mxFrame}) and those already copied into the database ({@code nBackfill}).
 *
 * <p>A process killed while it writes leaves a frame cut anywhere (the kernel may stop a write between two pages),
 * and that frame belongs to a transaction that never returned, so the end of the log is no evidence. The index is:
 * SQLite updates it after every commit, and a killed process's writes to it stay in the page cache. A log that
 * holds fewer committed frames than the index counted lost commits; so did a missing log whose frames were not all
 * copied into the database yet.
 */
final class WalFile {

    private static final int HEADER = 32;
    private static final int FRAME_HEADER = 24;
    private static final int VERSION = 3007000;
    /** The index's header (two copies of 48 bytes) and the checkpoint's record after them: walformat.html, 2.1. */
    private static final int INDEX_HEADER = 48;
    private static final int INDEX_BYTES = 2 * INDEX_HEADER + 4;

    private WalFile() {
    }

    /**
     * What the index of a log says, when it can be trusted: its two header copies agree (a process killed while it
     * wrote them leaves them different, and SQLite then rebuilds the index from the log).
     */
    record Index(int mxFrame, int nBackfill, int salt1, int salt2) {

        /** Every committed frame is in the database file: losing the log loses nothing. */
        boolean allCopied() {
            return Integer.compareUnsigned(nBackfill, mxFrame) >= 0;
        }

        static Optional<Index> read(Path shm) throws IOException {
            if (!Files.isRegularFile(shm) || Files.size(shm) < INDEX_BYTES) {
                return Optional.empty();
            }
            ByteBuffer bytes;
            try (FileChannel channel = FileChannel.open(shm, StandardOpenOption.READ)) {
                bytes = WalFile.read(channel, 0, INDEX_BYTES);
            }
            bytes.order(ByteOrder.nativeOrder()); // the index is in the writing machine's byte order
            boolean initialised = bytes.get(12) != 0;
            boolean copiesAgree = bytes.slice(0, INDEX_HEADER).equals(bytes.slice(INDEX_HEADER, INDEX_HEADER));
            if (!initialised || !copiesAgree || bytes.getInt(0) != VERSION) {
                return Optional.empty();
            }
            int mxFrame = bytes.getInt(16);
            int nBackfill = bytes.getInt(2 * INDEX_HEADER);
            // The salts are the log header's own bytes, copied as they are: read them as the log's header is read.
            bytes.order(ByteOrder.BIG_ENDIAN);
            return Optional.of(new Index(mxFrame, nBackfill, bytes.getInt(32), bytes.getInt(36)));
        }
    }

    /** Empty when the log holds every commit the index counted (or there is no index to say); else what is wrong. */
    static Optional<String> damage(Path wal, Optional<Index> index) throws IOException {
        long size = Files.size(wal);
        if (size == 0) {
            // Truncated by a checkpoint, which resets the index first; an index still counting frames lost them.
            return index.filter(at -> !at.allCopied())
                    .map(at -> "it is empty, but the database's index counts " + at.mxFrame() + " frames in it");
        }
        if (size < HEADER) {
            return Optional.of("it is " + size + " bytes long, shorter than its own header");
        }
        try (FileChannel channel = FileChannel.open(wal, StandardOpenOption.READ)) {
            ByteBuffer header = read(channel, 0, HEADER);
            int magic = header.getInt(0);
            if ((magic & ~1) != 0x377f0682 || header.getInt(4) != VERSION) {
                return Optional.of("its header is not a SQLite log header (garbled)");
            }
            ByteOrder words = (magic & 1) == 1 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            int pageSize = header.getInt(8) == 1 ? 65536 : header.getInt(8);
            if (pageSize < 512 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
                return Optional.of("its header names a page size of " + pageSize + " (garbled)");
            }
            int[] sum = checksum(words, header, 0, 24, 0, 0);
            if (sum[0] != header.getInt(24) || sum[1] != header.getInt(28)) {
                return Optional.of("its header's checksum does not match (garbled)");
            }
            int frame = FRAME_HEADER + pageSize;
            int salt1 = header.getInt(16);
            int salt2 = header.getInt(20);
            boolean chainBroken = false;
            long lastCommit = 0; // the number of frames up to the last whole commit, as SQLite's recovery counts them
            long frames = (size - HEADER) / frame; // a cut last frame is not counted: a kill leaves one
            for (long i = 0; i < frames; i++) {
                ByteBuffer bytes = read(channel, HEADER + i * frame, frame);
                boolean ours = bytes.getInt(8) == salt1 && bytes.getInt(12) == salt2;
                if (!chainBroken) {
                    int[] next = ours ? checksum(words, bytes, 0, 8, sum[0], sum[1]) : null;
                    if (next != null) {
                        next = checksum(words, bytes, FRAME_HEADER, frame, next[0], next[1]);
                    }
                    if (next != null && next[0] == bytes.getInt(16) && next[1] == bytes.getInt(20)) {
                        sum = next;
                        if (bytes.getInt(4) != 0) {
                            lastCommit = i + 1;
                        }
                        continue;
                    }
                    chainBroken = true; // frames of an earlier round of the log, or damage: told apart below
                }
                if (ours && bytes.getInt(4) != 0) {
                    // A commit of this round of the log after a frame that fails its checksum: SQLite would drop it.
                    return Optional.of("frame " + (i + 1) + " of " + frames + " is a commit SQLite would drop, after a"
                            + " frame whose checksum fails (garbled)");
                }
            }
            // The index speaks of this round of the log only when it has its salts; a kill between the index's reset
            // and the log's new header leaves the new salts in the index and nothing committed under them.
            if (index.isPresent() && index.get().salt1() == salt1 && index.get().salt2() == salt2
                    && Integer.toUnsignedLong(index.get().mxFrame()) > lastCommit) {
                return Optional.of("it holds " + lastCommit + " committed frames where the database's index counts "
                        + Integer.toUnsignedLong(index.get().mxFrame()) + " (cut short or garbled)");
            }
            return Optional.empty();
        }
    }

    private static ByteBuffer read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new IOException("the log ended while it was read");
            }
        }
        return buffer.flip().order(ByteOrder.BIG_ENDIAN);
    }

    /** SQLite's log checksum: pairs of 32-bit words in the log's byte order, added with wrap-around. */
    private static int[] checksum(ByteOrder order, ByteBuffer bytes, int from, int to, int s0, int s1) {
        ByteBuffer words = bytes.duplicate().order(order);
        for (int i = from; i < to; i += 8) {
            s0 += words.getInt(i) + s1;
            s1 += words.getInt(i + 4) + s0;
        }
        return new int[] {s0, s1};
    }
}
