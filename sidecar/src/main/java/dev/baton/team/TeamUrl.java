package dev.baton.team;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The team database as {@code BATON_TEAM_URL} names it, in libpq's URI form ({@code postgresql://user:pw@host:5432/db
 * ?sslmode=verify-full}, {@code postgres://} too) or the JDBC form ({@code jdbc:postgresql://…}). The driver takes
 * {@code sslmode} and the other parameters as libpq does, and a password from {@code PGPASSFILE} or {@code ~/.pgpass};
 * {@code PGUSER} and {@code PGPASSWORD} fill in what the URL leaves out.
 *
 * @param jdbcUrl  the URL the driver is given, without credentials
 * @param user     null to let the driver choose
 * @param password null to let the driver look in the password file
 */
public record TeamUrl(String jdbcUrl, String user, String password) {

    private static final Pattern URI = Pattern.compile("^(?:jdbc:)?postgres(?:ql)?://(?:([^@/]*)@)?([^?]*)(\\?.*)?$");

    static TeamUrl parse(String value, Map<String, String> env) {
        Matcher uri = URI.matcher(value.strip());
        if (!uri.matches()) {
            throw new IllegalArgumentException(TeamSettings.URL_VARIABLE + " must be a PostgreSQL URL such as"
                    + " postgresql://baton@db.example.com:5432/baton?sslmode=verify-full, was '" + shown(value) + "'");
        }
        String user = null;
        String password = null;
        if (uri.group(1) != null && !uri.group(1).isEmpty()) {
            String[] credentials = uri.group(1).split(":", 2);
            user = decode(credentials[0]);
            password = credentials.length > 1 ? decode(credentials[1]) : null;
        }
        if (user == null && env.get("PGUSER") != null) {
            user = env.get("PGUSER");
        }
        if (password == null && env.get("PGPASSWORD") != null) {
            password = env.get("PGPASSWORD");
        }
        String location = uri.group(2);
        if (location.isEmpty() || location.startsWith("/")) {
            location = "localhost" + location;
        }
        String query = uri.group(3) == null ? "" : uri.group(3);
        return new TeamUrl("jdbc:postgresql://" + location + query, user, password);
    }

    /** The driver's connection properties: the credentials and bounds on every wait, so no hook waits on a dead database. */
    Properties properties(int connectSeconds, int readSeconds) {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        properties.setProperty("connectTimeout", Integer.toString(connectSeconds));
        properties.setProperty("loginTimeout", Integer.toString(connectSeconds));
        properties.setProperty("socketTimeout", Integer.toString(readSeconds));
        properties.setProperty("tcpKeepAlive", "true");
        properties.setProperty("ApplicationName", "baton");
        return properties;
    }

    /** The URL as status and logs show it: the user, never the password. */
    public String shown() {
        String location = jdbcUrl.substring("jdbc:".length());
        return user == null ? location : location.replaceFirst("://", "://" + user + "@");
    }

    private static String shown(String raw) {
        return raw.replaceAll("://([^:@/]*):[^@/]*@", "://$1:***@");
    }

    private static String decode(String part) {
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
