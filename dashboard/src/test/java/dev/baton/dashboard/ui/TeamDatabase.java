package dev.baton.dashboard.ui;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL for the team-mode window tests (its binaries come with the build), one per test JVM; each test
 * gets an empty database of its own, named by the URL a sidecar's BATON_TEAM_URL takes.
 */
final class TeamDatabase {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;

    private TeamDatabase() {
    }

    static synchronized String newDatabase() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(TeamDatabase::stopQuietly));
        }
        String name = "dashteam" + DATABASES.incrementAndGet();
        try (Connection admin = server.getPostgresDatabase().getConnection(); Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return "postgresql://postgres@127.0.0.1:" + server.getPort() + "/" + name;
    }

    private static void stopQuietly() {
        try {
            server.close();
        } catch (IOException e) {
            // the JVM is ending anyway
        }
    }
}
