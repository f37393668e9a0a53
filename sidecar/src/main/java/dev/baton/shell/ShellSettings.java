package dev.baton.shell;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Every setting of Baton's shell checks, read in one place from the sidecar's environment (README "Shell commands").
 *
 * @param enabled {@code BATON_SHELL=off} turns the shell checks off: shell tools pass as before
 * @param afterCheck {@code BATON_SHELL_AFTER_CHECK=0} turns off the comparison of git's view before and after a command
 * @param allow {@code BATON_SHELL_ALLOW}: commands (';'-separated word prefixes) Baton treats as read-only
 * @param deny {@code BATON_SHELL_DENY}: commands always denied, e.g. {@code git push --force;git reset --hard}
 * @param gitTimeout {@code BATON_SHELL_GIT_TIMEOUT_MS}: the longest one git query may take (default 3000)
 * @param indexWait {@code BATON_SHELL_INDEX_WAIT_MS}: how long a git command waits for another session's index
 *                  writer in the same repository before it is denied (default 1500)
 * @param enforce {@code BATON_SHELL_ENFORCE=off} lets agents' shell commands run without the files other sessions
 *                hold made read-only for them (the checks before and after a command still apply)
 * @param guardLimit {@code BATON_SHELL_GUARD_MAX}: at most this many held files are made read-only for one command,
 *                   those of the command's own directory first (default 2000)
 */
public record ShellSettings(boolean enabled, boolean afterCheck, List<List<String>> allow, List<List<String>> deny,
                            Duration gitTimeout, Duration indexWait, boolean enforce, int guardLimit) {

    public ShellSettings {
        allow = List.copyOf(allow);
        deny = List.copyOf(deny);
    }

    public static ShellSettings defaults() {
        return fromEnvironment(Map.of());
    }

    public static ShellSettings fromEnvironment(Map<String, String> env) {
        return new ShellSettings(
                on(env, "BATON_SHELL"),
                on(env, "BATON_SHELL_AFTER_CHECK"),
                commands(env.get("BATON_SHELL_ALLOW")),
                commands(env.get("BATON_SHELL_DENY")),
                millis(env, "BATON_SHELL_GIT_TIMEOUT_MS", 3000),
                millis(env, "BATON_SHELL_INDEX_WAIT_MS", 1500),
                on(env, "BATON_SHELL_ENFORCE"),
                count(env, "BATON_SHELL_GUARD_MAX", 2000));
    }

    /** A switch that is on unless set to {@code off} or {@code 0}. */
    private static boolean on(Map<String, String> env, String name) {
        String value = env.getOrDefault(name, "on").strip();
        return !"off".equalsIgnoreCase(value) && !"0".equals(value);
    }

    private static List<List<String>> commands(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        return Arrays.stream(value.split(";")).map(String::strip).filter(s -> !s.isEmpty())
                .map(s -> List.of(s.split("\\s+"))).toList();
    }

    private static Duration millis(Map<String, String> env, String name, long fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return Duration.ofMillis(fallback);
        }
        try {
            long millis = Long.parseLong(value.strip());
            if (millis < 0) {
                throw new IllegalArgumentException(name + " must be zero or more milliseconds, was " + value);
            }
            return Duration.ofMillis(millis);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number of milliseconds, was '" + value + "'");
        }
    }

    private static int count(Map<String, String> env, String name, int fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int count = Integer.parseInt(value.strip());
            if (count < 0) {
                throw new IllegalArgumentException(name + " must be zero or more, was " + value);
            }
            return count;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + value + "'");
        }
    }

    /** Whether every simple command of the line starts with one of the allowed prefixes. */
    boolean allowed(List<List<String>> commands) {
        return !allow.isEmpty() && !commands.isEmpty() && commands.stream().allMatch(c -> matchesAny(c, allow));
    }

    /** The first simple command that starts with a denied prefix, or null. */
    List<String> denied(List<List<String>> commands) {
        return commands.stream().filter(c -> matchesAny(c, deny)).findFirst().orElse(null);
    }

    private static boolean matchesAny(List<String> command, List<List<String>> prefixes) {
        for (List<String> prefix : prefixes) {
            if (command.size() >= prefix.size() && command.subList(0, prefix.size()).equals(prefix)) {
                return true;
            }
        }
        return false;
    }
}
