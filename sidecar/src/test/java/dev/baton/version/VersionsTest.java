package dev.baton.version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.ReleaseReason;
import dev.baton.lock.SharedLockSpace;
import dev.baton.session.Registration;
import dev.baton.state.AuditEntry;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import dev.baton.store.SqliteStore;
import dev.baton.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kept versions against a real SQLite file and a real version directory, with bounds small enough to reach and
 * a clock the test moves: the same content is stored once, a file over the size limit is not kept and says so, the
 * oldest contents go past the total and every content past its age, and a record outlives a restart.
 */
class VersionsTest {

    static final VersionSettings SMALL = new VersionSettings(100, 250, Duration.ofDays(7));

    @TempDir Path dir;
    MutableClock clock = new MutableClock(Instant.parse("2026-11-22T09:00:00Z"));
    Path versions;
    Path repo;
    Baton baton;

    @BeforeEach
    void open() throws IOException {
        versions = dir.resolve("home/versions");
        repo = Files.createDirectories(dir.resolve("repo"));
        baton = start();
        baton.sessions().register(new Registration("a", ClaudeCodeDialect.KIND, null, "host", repo.toString(),
                repo.toString(), null, null));
    }

    private Baton start() {
        return new Baton(new SqliteStore(dir.resolve("baton.db")), clock, new OsProcessLiveness(), Duration.ofDays(30),
                SharedLockSpace.LOCAL, new VersionStore(versions, SMALL));
    }

    @AfterEach
    void close() {
        baton.close();
    }

    /** Session a takes {@code name} (which then exists with {@code content}) and ends an edit of it. */
    private String edited(String name, String content) throws IOException {
        String file = repo.resolve(name).toString();
        baton.locks().acquire(AcquireRequest.explicit("a", List.of(file), Duration.ZERO));
        Files.writeString(Path.of(file), content);
        baton.versions().keep("a", List.of(file));
        return file;
    }

    private List<String> contents() throws IOException {
        try (Stream<Path> files = Files.list(versions)) {
            return files.map(path -> path.getFileName().toString()).filter(name -> !name.startsWith(".")).sorted().toList();
        }
    }

    private List<AuditEntry> audit(String action) {
        return baton.ledger().store().auditSince(0, 10_000).stream().filter(entry -> entry.action().equals(action)).toList();
    }

    @Test
    void theSameContentIsStoredOnceWhetherOfOneFileOrOfTwo() throws IOException {
        String first = edited("A.java", "same\n");
        String second = edited("B.java", "same\n");
        baton.versions().keep("a", List.of(first, second));

        assertThat(contents()).singleElement().isEqualTo(VersionStore.sha256("same\n".getBytes()));
        assertThat(Files.getPosixFilePermissions(versions.resolve(contents().get(0))))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.getPosixFilePermissions(versions)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(audit(Versions.KEPT)).extracting(AuditEntry::file).containsExactly(first, second);
    }

    @Test
    void aFileOverTheSizeLimitIsNotKeptAndTheRestoreSaysWhy() throws IOException {
        String file = edited("Big.java", "x".repeat(101));

        assertThat(Files.exists(versions) ? contents() : List.of()).isEmpty();
        assertThat(audit(Versions.NOT_KEPT)).singleElement()
                .satisfies(entry -> assertThat(entry.reason()).contains("101 bytes, over the limit of 100"));
        assertThatThrownBy(() -> baton.versions().restore(file, "a", "a"))
                .isInstanceOfSatisfying(BatonException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessageContaining("over the limit of 100 (BATON_VERSION_MAX_FILE)");
    }

    @Test
    void pastTheTotalTheOldestContentsGoAndTheirRecordsWithThem() throws IOException {
        String oldest = edited("A.java", "a".repeat(100));
        clock.advance(Duration.ofMinutes(1));
        String middle = edited("B.java", "b".repeat(100));
        clock.advance(Duration.ofMinutes(1));
        String newest = edited("C.java", "c".repeat(100));

        assertThat(contents()).hasSize(2);
        assertThat(baton.versions().last(oldest)).isEmpty();
        assertThat(baton.versions().last(middle)).isPresent();
        assertThat(baton.versions().last(newest)).isPresent();
    }

    @Test
    void aContentNotKeptAgainWithinTheAgeIsDroppedAtThePrune() throws IOException {
        String kept = edited("A.java", "by a\n");
        clock.advance(Duration.ofDays(6));
        assertThat(baton.versions().prune()).isZero();
        assertThat(baton.versions().last(kept)).isPresent();

        clock.advance(Duration.ofDays(2));
        assertThat(baton.versions().prune()).isOne();

        assertThat(contents()).isEmpty();
        assertThat(baton.versions().last(kept)).isEmpty();
        assertThatThrownBy(() -> baton.versions().restore(kept, "a", "a")).hasMessageContaining("Baton kept no version");
    }

    @Test
    void aVersionIsNotPutBackOverAnotherSessionsHeldFileButTheSupervisorMay() throws IOException {
        String file = edited("A.java", "by a\n");
        baton.locks().release("a", List.of(file), ReleaseReason.RELEASED);
        baton.sessions().register(new Registration("b", ClaudeCodeDialect.KIND, null, "host", repo.toString(),
                repo.toString(), null, null));
        baton.locks().acquire(AcquireRequest.explicit("b", List.of(file), Duration.ZERO));
        Files.writeString(Path.of(file), "by b\n");

        assertThatThrownBy(() -> baton.versions().restore(file, "a", "a"))
                .isInstanceOfSatisfying(BatonException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.LOCK_HELD))
                .hasMessageContaining("is held by session b now");
        assertThat(Path.of(file)).hasContent("by b");

        baton.versions().restore(file, null, "supervisor (pid 1)");
        assertThat(Path.of(file)).hasContent("by a");
        assertThat(audit(Versions.RESTORED)).singleElement()
                .satisfies(entry -> assertThat(entry.actor()).isEqualTo("supervisor (pid 1)"));
    }

    @Test
    void theRecordOfTheLastVersionOutlivesARestart() throws IOException {
        String file = edited("A.java", "by a\n");
        Files.writeString(Path.of(file), "by someone else\n");
        baton.close();

        baton = start();
        Versions.Restored restored = baton.versions().restore(file, "a", "a");

        assertThat(restored.hash()).isEqualTo(VersionStore.sha256("by a\n".getBytes()));
        assertThat(Path.of(file)).hasContent("by a");
    }
}
