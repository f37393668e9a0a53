package dev.baton.team;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL for the team tests, brought by the build (the server's binaries come from Maven Central), one per
 * test JVM; each test gets a database of its own. It can be stopped and started again on the same port and data, as
 * a database that goes away and comes back.
 */
final class TeamPostgres {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedPostgres server;

    private TeamPostgres() {
    }

    static synchronized EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(TeamPostgres::stopQuietly));
        }
        return server;
    }

    /** A new empty database, as the URL a sidecar's BATON_TEAM_URL names it. */
    static String newDatabase() {
        String name = "team" + DATABASES.incrementAndGet();
        try (Connection admin = server().getPostgresDatabase().getConnection(); Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return "postgresql://postgres@127.0.0.1:" + server().getPort() + "/" + name;
    }

    /** A connection to the database {@code url} names, as an outsider with the URL would open one. */
    static Connection connect(String url) throws SQLException {
        TeamUrl parsed = TeamUrl.parse(url, java.util.Map.of());
        return java.sql.DriverManager.getConnection(parsed.jdbcUrl(), parsed.properties(5, 5));
    }

    /** Runs statements (several, separated by semicolons) in that database. */
    static void execute(String url, String sql) throws SQLException {
        try (Connection db = connect(url); Statement statement = db.createStatement()) {
            statement.execute(sql);
        }
    }

    /** The number a query of one row and column answers. */
    static long count(String url, String sql) throws SQLException {
        try (Connection db = connect(url); Statement statement = db.createStatement();
             java.sql.ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static void stopQuietly() {
        try {
            server.close();
        } catch (IOException e) {
            // the JVM is ending anyway
        }
    }
}
