package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.git.TestRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A team database that asks for a password (scram-sha-256): the sidecar, a process of its own, finds it in the file
 * {@code PGPASSFILE} names, as libpq does, with no password in {@code BATON_TEAM_URL}; without the file it stays out of
 * the team and says why.
 */
class TeamCredentialsTest {

    private static final String ROLE = "team_with_password";
    private static final String PASSWORD = "pw-" + UUID.randomUUID();
    private static String database;

    @TempDir
    Path dir;

    private TeamMember member;

    /** A role that must give its password over TCP; the server's other roles keep their access. */
    @BeforeAll
    static void passwordRole() throws SQLException, IOException {
        database = "creds" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection admin = TeamPostgres.server().getPostgresDatabase().getConnection();
             Statement statement = admin.createStatement()) {
            statement.execute("SET password_encryption = 'scram-sha-256'");
            statement.execute("DROP ROLE IF EXISTS " + ROLE);
            statement.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'");
            statement.execute("CREATE DATABASE " + database + " OWNER " + ROLE);
            String hba;
            try (ResultSet row = statement.executeQuery("SHOW hba_file")) {
                row.next();
                hba = row.getString(1);
            }
            String rules = Files.readString(Path.of(hba));
            String rule = "host all " + ROLE + " 127.0.0.1/32 scram-sha-256\n";
            if (!rules.startsWith(rule)) {
                Files.writeString(Path.of(hba), rule + rules); // the first matching line decides
            }
            statement.execute("SELECT pg_reload_conf()");
        }
    }

    @AfterEach
    void leave() {
        if (member != null) {
            member.close();
        }
    }

    @Test
    void theSidecarTakesThePasswordFromThePasswordFileAndJoinsTheTeam() throws Exception {
        Path passwords = Files.writeString(dir.resolve("pgpass"),
                "127.0.0.1:" + TeamPostgres.server().getPort() + ":" + database + ":" + ROLE + ":" + PASSWORD + "\n");
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-------"));

        member = TeamMember.joinAsProcess(dir, url(), "machine-one", workingTree(), Map.of("PGPASSFILE", passwords.toString()));
        String alice = member.register("alice-session");

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> member.get("/v1/team").body().path("team").path("connected").asBoolean());
        assertThat(member.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        try (Connection db = TeamPostgres.server().getDatabase("postgres", database).getConnection();
             Statement statement = db.createStatement();
             ResultSet row = statement.executeQuery("SELECT count(*) FROM baton_team_claims")) {
            row.next();
            assertThat(row.getInt(1)).as("the claim reached the team's database").isEqualTo(1);
        }
    }

    @Test
    void withoutThePasswordTheSidecarStaysOutOfTheTeamAndSaysWhy() throws Exception {
        member = TeamMember.joinAsProcess(dir, url(), "machine-one", workingTree(),
                Map.of("PGPASSFILE", dir.resolve("no-such-file").toString()));

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> !member.get("/v1/team").body().path("team").path("last_error").asText("").isEmpty());
        TeamMember.Reply team = member.get("/v1/team");
        assertThat(team.body().path("team").path("connected").asBoolean()).isFalse();
        assertThat(team.body().path("team").path("last_error").asText()).containsIgnoringCase("password");
    }

    private String url() {
        return "postgresql://" + ROLE + "@127.0.0.1:" + TeamPostgres.server().getPort() + "/" + database;
    }

    private Path workingTree() throws IOException {
        TestRepo origin = TestRepo.create(dir.resolve("origin"), "src/App.java");
        return TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "one");
    }
}
