package dev.baton.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.Registration;
import dev.baton.session.SessionRows;
import dev.baton.state.AuditEntry;
import dev.baton.store.SqliteStore;
import dev.baton.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit log kept to its retention in a real SQLite file: by age, by count, a batch at a time, ids still growing. */
class AuditPrunerTest {

    @TempDir Path dir;
    MutableClock clock;
    Baton baton;

    @BeforeEach
    void open() {
        clock = new MutableClock(Instant.parse("2026-11-01T00:00:00Z"));
        baton = new Baton(new SqliteStore(dir.resolve("baton.db")), clock, new OsProcessLiveness(), Duration.ofMinutes(30));
    }

    @AfterEach
    void close() {
        baton.close();
    }

    @Test
    void entriesOlderThanTheAgeGoAndTheYoungerStay() {
        audit(30, Duration.ofMinutes(10)); // 30 entries, one every 10 minutes: five hours

        int deleted = new AuditPruner(baton.ledger(), new AuditRetention(Duration.ofHours(2), 1_000_000)).prune();

        List<AuditEntry> kept = all();
        assertThat(deleted).isEqualTo(30 - kept.size());
        assertThat(kept).isNotEmpty().allSatisfy(entry ->
                assertThat(entry.at()).isAfterOrEqualTo(clock.instant().minus(Duration.ofHours(2))));
        assertThat(kept).hasSize(12); // the entries of the last two hours, the one at the cut included
    }

    @Test
    void onlyTheNewestRowsStayAndAnIdIsNeverHandedOutTwice() {
        audit(50, Duration.ofSeconds(1));
        long newest = all().get(all().size() - 1).id();

        new AuditPruner(baton.ledger(), new AuditRetention(Duration.ofDays(90), 10)).prune();
        audit(1, Duration.ofSeconds(1));

        List<AuditEntry> kept = all();
        assertThat(kept).hasSize(11);
        assertThat(kept.get(0).id()).isEqualTo(newest - 9);
        assertThat(kept.get(kept.size() - 1).id()).isEqualTo(newest + 1);
    }

    @Test
    void theNewestEntryStaysWhateverItsAgeAndABacklogGoesABatchAtATime() {
        audit(AuditPruner.BATCH + 100, Duration.ZERO);
        clock.advance(Duration.ofDays(365));
        AuditPruner pruner = new AuditPruner(baton.ledger(), new AuditRetention(Duration.ofDays(1), 1_000_000));

        assertThat(pruner.prune()).isEqualTo(AuditPruner.BATCH);
        assertThat(pruner.prune()).isEqualTo(99);
        assertThat(pruner.prune()).isZero();
        assertThat(all()).hasSize(1);
    }

    @Test
    void endedSessionsAreForgottenWithTheirAge() {
        for (String id : List.of("old", "young")) {
            baton.sessions().register(new Registration(id, ClaudeCodeDialect.KIND, null, null, null, null, null, null));
            baton.ledger().write(tx -> baton.locks().endSession(tx, tx.world().find(SessionRows.SESSIONS, id).orElseThrow(),
                    ReleaseReason.SESSION_ENDED, null));
            clock.advance(Duration.ofHours(3));
        }

        new AuditPruner(baton.ledger(), new AuditRetention(Duration.ofHours(4), 1_000_000)).prune();

        assertThat(baton.sessions().ended("old")).isEmpty();
        assertThat(baton.sessions().ended("young")).isPresent();
    }

    @Test
    void theSettingsAreReadFromTheEnvironmentAndABadOneIsRefusedSayingSo() {
        assertThat(AuditRetention.fromEnvironment(Map.of())).isEqualTo(AuditRetention.defaults());
        assertThat(AuditRetention.fromEnvironment(Map.of("BATON_AUDIT_MAX_AGE", "30d", "BATON_AUDIT_MAX_ROWS", "5000")))
                .isEqualTo(new AuditRetention(Duration.ofDays(30), 5000));
        assertThat(AuditRetention.fromEnvironment(Map.of("BATON_AUDIT_MAX_AGE", "12h")).maxAge()).isEqualTo(Duration.ofHours(12));
        assertThatThrownBy(() -> AuditRetention.fromEnvironment(Map.of("BATON_AUDIT_MAX_AGE", "forever")))
                .hasMessageContaining("BATON_AUDIT_MAX_AGE").hasMessageContaining("90d");
        assertThatThrownBy(() -> AuditRetention.fromEnvironment(Map.of("BATON_AUDIT_MAX_ROWS", "0")))
                .hasMessageContaining("BATON_AUDIT_MAX_ROWS");
    }

    /** {@code count} audit entries, the clock moving {@code step} after each. */
    private void audit(int count, Duration step) {
        for (int i = 0; i < count; i++) {
            int n = i;
            baton.ledger().write(tx -> {
                tx.audit("acquire", "s", "/repo/f" + n, null, null);
                return null;
            });
            clock.advance(step);
        }
    }

    private List<AuditEntry> all() {
        return baton.ledger().read(world -> baton.ledger().store().auditSince(0, 1_000_000));
    }
}
