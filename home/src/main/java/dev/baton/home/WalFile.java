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
 * Reads a SQLite write-ahead log without opening the database, to tell whether it is whole. SQLite itself never
 * says: it stops at the first frame whose checksum fails and treats the rest, committed or not, as never written.
 * No library exposes this check, so the format (https://www.sqlite.org/fileformat2.html#walformat) is read here:
 * a 32-byte header, then frames of a 24-byte header and one page, each checksummed over all the frames before it.
 */
final class WalFile {

    private static final int HEADER = 32;
    private static final int FRAME_HEADER = 24;
    private static final int VERSION = 3007000;

    private WalFile() {
    }

    /** Empty when the log is whole (an empty file is); otherwise what is wrong with it, in a few words. */
    static Optional<String> damage(Path wal) throws IOException {
        long size = Files.size(wal);
        if (size == 0) {
            return Optional.empty(); // truncated by a checkpoint: nothing was committed since
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
            long tail = (size - HEADER) % frame;
            // SQLite writes a frame's header and its page with two writes: a process killed between them leaves the
            // header of a frame SQLite ignores (its transaction never returned). Any other partial frame was cut.
            boolean tornByAKill = tail == FRAME_HEADER
                    && read(channel, size - tail, FRAME_HEADER).getInt(8) == salt1
                    && read(channel, size - tail, FRAME_HEADER).getInt(12) == salt2;
            if (tail != 0 && !tornByAKill) {
                return Optional.of("it ends in the middle of a frame (cut short: " + size + " bytes)");
            }
            boolean chainBroken = false;
            long frames = (size - HEADER) / frame;
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
