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
 */
public record ShellSettings(boolean enabled, boolean afterCheck, List<List<String>> allow, List<List<String>> deny,
                            Duration gitTimeout, Duration indexWait) {

    public ShellSettings {
        allow = List.copyOf(allow);
        deny = List.copyOf(deny);
    }

    public static ShellSettings defaults() {
        return fromEnvironment(Map.of());
    }

    public static ShellSettings fromEnvironment(Map<String, String> env) {
        return new ShellSettings(
                !"off".equalsIgnoreCase(env.getOrDefault("BATON_SHELL", "on").strip())
                        && !"0".equals(env.getOrDefault("BATON_SHELL", "on").strip()),
                !"0".equals(env.getOrDefault("BATON_SHELL_AFTER_CHECK", "1").strip())
                        && !"off".equalsIgnoreCase(env.getOrDefault("BATON_SHELL_AFTER_CHECK", "1").strip()),
                commands(env.get("BATON_SHELL_ALLOW")),
                commands(env.get("BATON_SHELL_DENY")),
                millis(env, "BATON_SHELL_GIT_TIMEOUT_MS", 3000),
                millis(env, "BATON_SHELL_INDEX_WAIT_MS", 1500));
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
