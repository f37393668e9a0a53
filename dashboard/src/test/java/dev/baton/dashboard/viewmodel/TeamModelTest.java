package dev.baton.dashboard.viewmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.baton.dashboard.protocol.TeamReply;
import dev.baton.dashboard.protocol.WireJson;
import dev.baton.testing.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The team's view-model fed with {@code GET /v1/team} replies as the sidecar writes them. */
class TeamModelTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T10:00:00Z"));
    private final DashboardModel model = new DashboardModel(clock);
    private final TeamModel team = model.team();

    @Test
    void withoutATeamNothingIsEnabledAndEveryTableIsEmpty() {
        assertThat(team.knownProperty().get()).isFalse();

        model.teamFetched(reply("{\"enabled\": false, \"team\": null}"));

        assertThat(team.knownProperty().get()).isTrue();
        assertThat(team.enabledProperty().get()).isFalse();
        assertThat(team.machineProperty().get()).isEmpty();
        assertThat(team.headlineProperty().get()).isEmpty();
        assertThat(team.machines()).isEmpty();
        assertThat(team.locks()).isEmpty();
    }

    @Test
    void everyMachineAndEveryLockOfTheTeamIsARowWithThisMachinesRowsMarked() {
        model.teamFetched(reply(team(true, null, null)));

        assertThat(team.enabledProperty().get()).isTrue();
        assertThat(team.machineProperty().get()).isEqualTo("m1");
        assertThat(team.machines()).extracting(TeamMachineRow::shownMachine, TeamMachineRow::host, TeamMachineRow::lease,
                        TeamMachineRow::sessions, TeamMachineRow::locks)
                .containsExactly(tuple("m1 (this machine)", "laptop", "valid", 1, 1),
                        tuple("m2", "build-box", "expired", 1, 2));
        assertThat(team.locks()).extracting(TeamLockRow::machine, TeamLockRow::local, TeamLockRow::repository,
                        TeamLockRow::path, TeamLockRow::holder, TeamLockRow::agent, TeamLockRow::lease)
                .containsExactlyInAnyOrder(
                        tuple("m1", true, "github.com/acme/shop", "src/App.java", "auth", "claude-code", "valid"),
                        tuple("m2", false, "github.com/acme/shop", "src/Billing.java", "bbbbbbbb", "codex", "expired"),
                        tuple("m2", false, "shop-docs", "README.md", "bbbbbbbb", "codex", "expired"));
        TeamLockRow remote = team.locks().stream().filter(row -> row.path().equals("README.md")).findFirst().orElseThrow();
        assertThat(remote.holderDescription()).isEqualTo("codex session bbbbbbbb-2222 on m2 (build-box), fencing number 12");
        assertThat(remote.since()).isEqualTo(Instant.parse("2025-01-01T09:40:00Z"));
        assertThat(team.sessions()).extracting(TeamSessionRow::machine, TeamSessionRow::shortSession, TeamSessionRow::local,
                        TeamSessionRow::locks)
                .containsExactlyInAnyOrder(tuple("m1", "aaaaaaaa", true, 1), tuple("m2", "bbbbbbbb", false, 2));
        assertThat(team.headlineProperty().get()).isEqualTo("Connected to the team as m1 (laptop)");
        assertThat(team.detailProperty().get())
                .isEqualTo("postgresql://db.example.com/baton · lease 2 min · scope repository · 1 claimed here");
    }

    @Test
    void aLockReleasedElsewhereLeavesTheTableWhileUnchangedRowsStayTheSameObjects() {
        model.teamFetched(reply(team(true, null, null)));
        TeamLockRow mine = team.locks().stream().filter(TeamLockRow::local).findFirst().orElseThrow();

        model.teamFetched(reply(team(true, null, null).replace(", " + LOCK_README, "")));

        assertThat(team.locks()).extracting(TeamLockRow::path).containsExactlyInAnyOrder("src/App.java", "src/Billing.java");
        assertThat(team.locks()).anySatisfy(row -> assertThat(row).isSameAs(mine));
    }

    @Test
    void anUnreachableDatabaseShowsSinceWhenWithTheErrorAndTheAgeMovesWithTheClock() {
        model.teamFetched(reply(team(false, "\"2025-01-01T09:59:20Z\"", "\"Connection refused\"")));

        assertThat(team.connectedProperty().get()).isFalse();
        assertThat(team.headlineProperty().get())
                .isEqualTo("Team database unreachable since 09:59:20 (40 s ago); this machine is m1 (laptop)");
        assertThat(team.detailProperty().get()).startsWith("Connection refused · postgresql://db.example.com/baton");

        clock.advance(Duration.ofMinutes(2));
        model.tick();

        assertThat(team.headlineProperty().get()).contains("(2 min ago)");
    }

    @Test
    void aFailedPollKeepsTheLastKnownTeamAndSaysSoUntilTheNextReply() {
        model.teamFetched(reply(team(true, null, null)));

        model.teamPollFailed(new ConnectException("the sidecar at http://127.0.0.1:1 did not answer"));

        assertThat(team.enabledProperty().get()).isTrue();
        assertThat(team.locks()).hasSize(3);
        assertThat(team.detailProperty().get()).contains("last known team; the sidecar did not answer: the sidecar at");

        model.teamFetched(reply(team(true, null, null)));

        assertThat(team.detailProperty().get()).doesNotContain("last known");
    }

    @Test
    void aSidecarThatLeavesTheTeamEmptiesItsTables() {
        model.teamFetched(reply(team(true, null, null)));

        model.teamFetched(TeamReply.none());

        assertThat(team.enabledProperty().get()).isFalse();
        assertThat(team.machines()).isEmpty();
        assertThat(team.sessions()).isEmpty();
        assertThat(team.locks()).isEmpty();
    }

    private static final String LOCK_README = lock("README.md", "m2", "build-box", "bbbbbbbb-2222", "codex", null,
            "2025-01-01T09:40:00Z", 12, false);

    private static String team(boolean connected, String unreachableSince, String lastError) {
        return """
                {"enabled": true, "team": {"url": "postgresql://db.example.com/baton", "machine": "m1", "host": "laptop",
                 "connected": %s, "unreachable_since": %s, "last_error": %s, "strict": false, "ttl_seconds": 120,
                 "scope": "repository", "claimed": 1, "unsynced": 0, "known_elsewhere": 2,
                 "statements": {"claim": 4, "renew": 9}, "machines_error": null, "some_future_field": 1,
                 "machines": [
                   {"machine": "m2", "host": "build-box", "lease_until": "2025-01-01T09:50:00Z", "lease_valid": false,
                    "renewed_at": "2025-01-01T09:48:00Z", "sessions": 1, "locks": 2},
                   {"machine": "m1", "host": "laptop", "lease_until": "2025-01-01T10:02:00Z", "lease_valid": true,
                    "renewed_at": "2025-01-01T09:59:50Z", "sessions": 1, "locks": 1}],
                 "sessions": [
                   {"machine": "m1", "session": "aaaaaaaa-1111", "agent": "claude-code", "name": "auth", "plan": "refactor auth", "locks": 1},
                   {"machine": "m2", "session": "bbbbbbbb-2222", "agent": "codex", "name": null, "plan": null, "locks": 2}],
                 "locks": [%s, %s, %s]}}
                """.formatted(connected, unreachableSince, lastError,
                lock("src/App.java", "m1", "laptop", "aaaaaaaa-1111", "claude-code", "auth", "2025-01-01T09:55:00Z", 11, true),
                lock("src/Billing.java", "m2", "build-box", "bbbbbbbb-2222", "codex", null, "2025-01-01T09:30:00Z", 7, false),
                LOCK_README);
    }

    private static String lock(String path, String machine, String host, String session, String agent, String name,
                               String since, long fence, boolean leaseValid) {
        return """
                {"repository": "%s", "path": "%s", "machine": "%s", "host": "%s", "session": "%s",
                 "agent": "%s", "name": %s, "plan": null, "since": "%s", "fence": %d, "lease_valid": %s}"""
                .formatted(path.equals("README.md") ? "file:shop-docs" : "origin:github.com/acme/shop",
                        path, machine, host, session, agent, name == null ? "null" : "\"" + name + "\"", since, fence,
                        leaseValid);
    }

    private static TeamReply reply(String json) {
        try {
            return WireJson.mapper().readValue(json, TeamReply.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
