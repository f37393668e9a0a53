package dev.baton.team;

import dev.baton.home.BatonHome;
import dev.baton.liveness.HolderLiveness;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * How this sidecar joins a team, from the environment: {@code BATON_TEAM_URL} names the shared PostgreSQL (without it
 * there is no team), {@code BATON_TEAM_TTL} how long a machine's sessions outlive its last lease renewal,
 * {@code BATON_TEAM_STRICT=1} refuses new locks while the database does not answer, {@code BATON_TEAM_SCOPE=branch}
 * narrows locks to a branch, and {@code BATON_TEAM_MACHINE} names this machine (else a name kept in BATON_HOME).
 */
public record TeamSettings(TeamUrl url, String machine, String host, Duration ttl, boolean strict, boolean perBranch) {

    public static final String URL_VARIABLE = "BATON_TEAM_URL";
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(2);
    /** This file's only writer and reader: the machine name a sidecar of this home goes by in its team. */
    static final String MACHINE_FILE = "team-machine";

    public TeamSettings {
        if (ttl.compareTo(Duration.ofSeconds(2)) < 0) {
            throw new IllegalArgumentException("BATON_TEAM_TTL must be at least 2 seconds, was " + ttl.toMillis() + " ms");
        }
    }

    /**
     * The settings the environment gives, or empty when it names no team. The machine is null unless
     * {@code BATON_TEAM_MACHINE} names it: {@link #named} chooses one once the home exists.
     */
    public static Optional<TeamSettings> fromEnvironment(Map<String, String> env) {
        String url = env.get(URL_VARIABLE);
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        String scope = env.getOrDefault("BATON_TEAM_SCOPE", "repository").strip();
        if (!scope.equals("repository") && !scope.equals("branch")) {
            throw new IllegalArgumentException("BATON_TEAM_SCOPE must be repository (the default: a lock covers the file on"
                    + " every branch) or branch, was '" + scope + "'");
        }
        String machine = env.get("BATON_TEAM_MACHINE");
        if (machine == null || machine.isBlank()) {
            machine = null;
        } else if (!machine.strip().matches("[A-Za-z0-9][A-Za-z0-9._-]{0,62}")) {
            throw new IllegalArgumentException("BATON_TEAM_MACHINE must be a name of letters, digits, '.', '_' and '-'"
                    + " (at most 63), was '" + machine + "'");
        }
        return Optional.of(new TeamSettings(TeamUrl.parse(url, env), machine == null ? null : machine.strip(), hostName(),
                HolderLiveness.durationSetting(env, "BATON_TEAM_TTL", DEFAULT_TTL),
                "1".equals(env.get("BATON_TEAM_STRICT")), scope.equals("branch")));
    }

    /** These settings with a machine name: the one set, else the one this home goes by (chosen at its first use). */
    public TeamSettings named(BatonHome home) throws IOException {
        return machine != null ? this : new TeamSettings(url, machineName(home), host, ttl, strict, perBranch);
    }

    /** How often the lease is renewed: a third of the TTL, so two renewals may fail before the machine expires. */
    public Duration renewEvery() {
        return ttl.dividedBy(3);
    }

    /** The machine's name: the host name and a random part, chosen once per BATON_HOME (two homes on one host are two machines). */
    private static String machineName(BatonHome home) throws IOException {
        Path file = home.dir().resolve(MACHINE_FILE);
        if (Files.isRegularFile(file)) {
            String kept = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (!kept.isEmpty()) {
                return kept;
            }
        }
        byte[] random = new byte[3];
        new SecureRandom().nextBytes(random);
        String name = hostName().replaceAll("[^A-Za-z0-9.-]", "-") + "-" + HexFormat.of().formatHex(random);
        Files.writeString(file, name + "\n", StandardCharsets.UTF_8);
        home.ownerOnly(file);
        return name;
    }

    static String hostName() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).strip();
            if (!name.isEmpty()) {
                return name;
            }
        } catch (IOException e) {
            // not Linux's /proc: ask the resolver below
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
