package dev.baton.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.LockChange;
import dev.baton.session.AgentKind;
import dev.baton.session.Registration;
import dev.baton.session.SessionChange;
import dev.baton.store.SqliteStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerTest {

    @TempDir Path dir;

    private Baton open() {
        return new Baton(new SqliteStore(dir.resolve("baton.db")), Clock.systemUTC(), new OsProcessLiveness(), Duration.ofMinutes(30));
    }

    @Test
    void aStoreFailureLeavesMemoryAsItWasAndTheCallerIsTold() throws Exception {
        try (Baton baton = open()) {
            baton.sessions().register(new Registration("a", AgentKind.CLI, null, null, null, null, null, null));
            baton.locks().acquire(AcquireRequest.explicit("a", List.of("/r/kept"), Duration.ZERO));
            Files.delete(dir.resolve("baton.db"));

            assertThatThrownBy(() -> baton.locks().acquire(AcquireRequest.explicit("a", List.of("/r/new"), Duration.ZERO)))
                    .isInstanceOf(StoreException.class).hasMessageContaining("deleted");

            assertThat(baton.locks().holderOf("/r/new")).isEmpty();
            assertThat(baton.locks().holderOf("/r/kept")).isPresent();
        }
    }

    @Test
    void whatWasCommittedIsWhatAReopenedStoreHolds() {
        try (Baton baton = open()) {
            baton.sessions().register(new Registration("a", ClaudeCodeDialect.KIND, null, "h", "/r", "/r", "named", null));
            baton.sessions().setPlan("a", "refactor auth", "split the service");
            baton.locks().acquire(AcquireRequest.explicit("a", List.of("/r/1", "/r/2"), Duration.ZERO));
            baton.locks().editDone("a", List.of("/r/1"));
        }
        try (Baton reopened = open()) {
            assertThat(reopened.sessions().get("a").plan().goal()).isEqualTo("refactor auth");
            assertThat(reopened.sessions().get("a").name()).isEqualTo("named");
            assertThat(reopened.locks().locksOf("a")).extracting(l -> l.file()).containsExactly("/r/1", "/r/2");
            assertThat(reopened.locks().locksOf("a").get(0).lastEditAt()).isNotNull();
        }
    }

    @Test
    void listenersSeeEachCommitsChangesInOrder() {
        try (Baton baton = open()) {
            List<Change> seen = new java.util.ArrayList<>();
            baton.ledger().addListener(seen::addAll);
            baton.sessions().register(new Registration("a", AgentKind.CLI, null, null, null, null, null, null));
            baton.locks().acquire(AcquireRequest.explicit("a", List.of("/r/x"), Duration.ZERO));

            assertThat(seen).filteredOn(c -> c instanceof LockChange.LockSaved).hasSize(1);
            assertThat(seen.get(0)).isInstanceOf(SessionChange.SessionSaved.class);
        }
    }
}
