package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.git.TestRepo;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two sidecar processes of one team race for the same files while one of them is SIGKILLed and restarted, round after
 * round. After every round: no acknowledged lock was lost, and no file is held on both machines.
 */
class TeamCrashCampaignTest {

    private static final String[] FILES = {"src/A.java", "src/B.java", "src/C.java", "src/D.java"};
    private static final int ROUNDS = 4;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 4242})
    void noAcknowledgedLockIsLostOrGrantedTwiceWhileSidecarsCrash(long seed) throws Exception {
        Random random = new Random(seed);
        String url = TeamPostgres.newDatabase();
        TestRepo origin = TestRepo.create(dir.resolve("origin"), FILES);
        Map<String, String> settings = Map.of("BATON_TEAM_TTL", "60");
        TeamMember[] machines = {
            TeamMember.joinAsProcess(dir, url, "machine-0", TeamMember.cloneOf(origin, "https://example.com/shop", dir, "c0"),
                    settings),
            TeamMember.joinAsProcess(dir, url, "machine-1", TeamMember.cloneOf(origin, "https://example.com/shop", dir, "c1"),
                    settings)};
        Map<String, String> keys = new HashMap<>();
        for (int m = 0; m < 2; m++) {
            for (int s = 0; s < 2; s++) {
                String session = "m" + m + "-s" + s;
                keys.put(session, machines[m].register(session));
            }
        }
        ExecutorService racers = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                // Every session asks for two random files at once; some are let go again.
                List<Future<?>> grants = new ArrayList<>();
                for (int m = 0; m < 2; m++) {
                    for (int s = 0; s < 2; s++) {
                        TeamMember machine = machines[m];
                        String session = "m" + m + "-s" + s;
                        String file = FILES[random.nextInt(FILES.length)];
                        boolean letGo = random.nextInt(3) == 0;
                        grants.add(racers.submit(() -> {
                            TeamMember.Reply reply = machine.acquire(session, keys.get(session), file);
                            if (reply.acquired() && letGo) {
                                machine.release(session, keys.get(session), file);
                            }
                        }));
                    }
                }
                for (Future<?> grant : grants) {
                    grant.get();
                }
                Map<String, String> heldBefore = heldEverywhere(machines);
                int victim = random.nextInt(2);
                machines[victim] = machines[victim].killAndRestart();
                Map<String, String> heldAfter = heldEverywhere(machines);

                assertThat(heldAfter).as("round %d: every acknowledged lock survives the crash of machine-%d", round, victim)
                        .containsAllEntriesOf(heldBefore);
                int shown = round;
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(claimsByFile(url)).as("round %d: the team database agrees with the machines", shown)
                                .isEqualTo(machineOfEachHeldFile(machines)));
            }
        } finally {
            racers.shutdownNow();
            for (TeamMember machine : machines) {
                machine.close();
            }
        }
    }

    /** Each held file with its holder as {@code MACHINE/SESSION}; fails if any file is held on two machines. */
    private static Map<String, String> heldEverywhere(TeamMember[] machines) {
        Map<String, String> held = new HashMap<>();
        Set<String> twice = new HashSet<>();
        for (int m = 0; m < machines.length; m++) {
            for (JsonNode lock : machines[m].get("/v1/locks").body().path("locks")) {
                String relative = machines[m].workingTree().relativize(Path.of(lock.path("file").asText())).toString();
                String previous = held.put(relative, "machine-" + m + "/" + lock.path("holder").path("session").asText());
                if (previous != null) {
                    twice.add(relative + " held by " + previous + " and machine-" + m);
                }
            }
        }
        assertThat(twice).as("files held on two machines at once").isEmpty();
        return held;
    }

    private static Map<String, String> machineOfEachHeldFile(TeamMember[] machines) {
        Map<String, String> byFile = new HashMap<>();
        heldEverywhere(machines).forEach((file, holder) -> byFile.put(file, holder.substring(0, holder.indexOf('/'))));
        return byFile;
    }

    private static Map<String, String> claimsByFile(String url) throws SQLException {
        TeamUrl parsed = TeamUrl.parse(url, Map.of());
        Map<String, String> claims = new HashMap<>();
        try (Connection db = DriverManager.getConnection(parsed.jdbcUrl(), parsed.properties(5, 5));
             Statement statement = db.createStatement();
             ResultSet row = statement.executeQuery("SELECT path, machine FROM baton_team_claims")) {
            while (row.next()) {
                claims.put(row.getString(1), row.getString(2));
            }
        }
        return claims;
    }
}
