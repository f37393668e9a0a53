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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log a process leaves when it dies with its connection open: copied while a real SQLite connection holds it,
 * with commits in it, as a crash image; then torn, cut or garbled as a kill, a careless hand or a bad disk would.
 */
class WalFileTest {

    @TempDir Path dir;
    Path wal;

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
        }
    }

    @Test
    void aLogWithItsCommitsIsWhole() throws Exception {
        assertThat(Files.size(wal)).isGreaterThan(32);
        assertThat(WalFile.damage(wal)).isEmpty();
    }

    @Test
    void theHeaderOfAFrameAKillToreFromItsPageIsWhatSqliteWritesFirstAndIsAccepted() throws Exception {
        appendFrameHeaderWithSalts(readInt(16), readInt(20));

        assertThat(WalFile.damage(wal)).isEmpty();
    }

    @Test
    void aPartialFrameThatIsNotATornHeaderIsACut() throws Exception {
        appendFrameHeaderWithSalts(readInt(16) + 1, readInt(20)); // not of this round of the log
        assertThat(WalFile.damage(wal)).hasValueSatisfying(what -> assertThat(what).contains("cut short"));
    }

    @Test
    void aLogCutInsideAPageIsACut() throws Exception {
        try (FileChannel channel = FileChannel.open(wal, StandardOpenOption.WRITE)) {
            channel.truncate(Files.size(wal) - 100);
        }
        assertThat(WalFile.damage(wal)).hasValueSatisfying(what -> assertThat(what).contains("cut short"));
    }

    @Test
    void aGarbledHeaderOrAGarbledFrameBeforeLaterCommitsIsDamage() throws Exception {
        Path copy = dir.resolve("copy.db-wal");
        Files.copy(wal, copy);
        overwrite(copy, 32 + 24 + 100, 8); // inside the first frame's page: the commits after it would be dropped
        assertThat(WalFile.damage(copy)).hasValueSatisfying(what -> assertThat(what).contains("garbled"));

        overwrite(wal, 24, 4); // the header's checksum
        assertThat(WalFile.damage(wal)).hasValueSatisfying(what -> assertThat(what).contains("header"));
    }

    private int readInt(int at) throws Exception {
        try (FileChannel channel = FileChannel.open(wal, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(4);
            channel.read(buffer, at);
            return buffer.flip().getInt();
        }
    }

    private void appendFrameHeaderWithSalts(int salt1, int salt2) throws Exception {
        ByteBuffer header = ByteBuffer.allocate(24).putInt(2).putInt(0).putInt(salt1).putInt(salt2).putInt(0).putInt(0).flip();
        try (FileChannel channel = FileChannel.open(wal, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            channel.write(header);
        }
    }

    private static void overwrite(Path file, long at, int length) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[length]).put(0, (byte) 0x5a).put(length - 1, (byte) 0xa5), at);
        }
    }
}
