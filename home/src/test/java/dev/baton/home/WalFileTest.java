package dev.baton.home;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log and index a process leaves when it dies with its connection open: copied while a real SQLite connection
 * holds them, with commits in the log, as a crash image; then torn, cut or garbled as a kill, a careless hand or a
 * bad disk would.
 */
class WalFileTest {

    @TempDir Path dir;
    Path wal;
    Optional<WalFile.Index> index;

    @BeforeEach
    void aCrashImageOfALogWithCommits() throws Exception {
        Path db = dir.resolve("live.db");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
             Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
            statement.execute("CREATE TABLE t (v TEXT)");
            for (int i = 0; i < 6; i++) {
                statement.execute("INSERT INTO t VALUES ('row " + i + "')");
            }
            wal = dir.resolve("image.db-wal");
            Files.copy(dir.resolve("live.db-wal"), wal);
            Files.copy(dir.resolve("live.db-shm"), dir.resolve("image.db-shm"));
        }
        index = WalFile.Index.read(dir.resolve("image.db-shm"));
    }

    @Test
    void aLogWithItsCommitsIsWhole() throws Exception {
        long frames = (Files.size(wal) - 32) / (24 + 4096);
        assertThat(index).hasValueSatisfying(at -> assertThat(at.mxFrame()).isEqualTo(frames));
        assertThat(WalFile.damage(wal, index)).isEmpty();
    }

    @Test
    void aFrameAKillCutAnywhereIsOfATransactionThatNeverReturnedAndIsAccepted() throws Exception {
        appendFrame(readInt(16), readInt(20), 24); // SQLite writes a frame's header first
        assertThat(WalFile.damage(wal, index)).isEmpty();

        appendFrame(readInt(16), readInt(20), 3_272); // the kernel may stop a write at a page boundary
        assertThat(WalFile.damage(wal, index)).isEmpty();
    }

    @Test
    void aLogCutInsideItsCommitsHasFewerCommittedFramesThanItsIndexCounts() throws Exception {
        try (FileChannel channel = FileChannel.open(wal, StandardOpenOption.WRITE)) {
            channel.truncate(Files.size(wal) - 100);
        }
        assertThat(WalFile.damage(wal, index)).hasValueSatisfying(what -> assertThat(what).contains("cut short"));
    }

    @Test
    void anEmptiedLogWhoseIndexStillCountsFramesLostThem() throws Exception {
        try (FileChannel channel = FileChannel.open(wal, StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }
        assertThat(WalFile.damage(wal, index)).hasValueSatisfying(what -> assertThat(what).contains("is empty"));
        assertThat(index).hasValueSatisfying(at -> assertThat(at.allCopied()).isFalse());
    }

    @Test
    void anIndexWhoseTwoHeaderCopiesDifferIsNotTrusted() throws Exception {
        Path shm = dir.resolve("image.db-shm");
        overwrite(shm, 16, 4); // the first copy's frame count, as a kill between the two copies' writes leaves it
        assertThat(WalFile.Index.read(shm)).isEmpty();
    }

    @Test
    void aGarbledHeaderOrAGarbledFrameBeforeLaterCommitsIsDamage() throws Exception {
        Path copy = dir.resolve("copy.db-wal");
        Files.copy(wal, copy);
        overwrite(copy, 32 + 24 + 100, 8); // inside the first frame's page: the commits after it would be dropped
        assertThat(WalFile.damage(copy, Optional.empty())).hasValueSatisfying(what -> assertThat(what).contains("garbled"));

        overwrite(wal, 24, 4); // the header's checksum
        assertThat(WalFile.damage(wal, index)).hasValueSatisfying(what -> assertThat(what).contains("header"));
    }

    private int readInt(int at) throws Exception {
        try (FileChannel channel = FileChannel.open(wal, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(4);
            channel.read(buffer, at);
            return buffer.flip().getInt();
        }
    }

    /** A frame of this round of the log, its header and the first bytes of its page, as a write cut short leaves it. */
    private void appendFrame(int salt1, int salt2, int length) throws Exception {
        ByteBuffer frame = ByteBuffer.allocate(length).putInt(2).putInt(0).putInt(salt1).putInt(salt2).putInt(0).putInt(0).rewind();
        try (FileChannel channel = FileChannel.open(wal, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            channel.write(frame);
        }
    }

    private static void overwrite(Path file, long at, int length) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[length]).put(0, (byte) 0x5a).put(length - 1, (byte) 0xa5), at);
        }
    }
}
