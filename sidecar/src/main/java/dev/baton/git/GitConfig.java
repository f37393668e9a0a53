package dev.baton.git;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** A value of git's configuration as git reads it for a directory (repository, user and system files). */
public final class GitConfig {

    private GitConfig() {
    }

    /** The alias {@code name} stands for ({@code git config alias.NAME}), if one is set. */
    public static Optional<String> alias(Path dir, String name, Duration timeout) {
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_-]*")) {
            return Optional.empty();
        }
        try {
            // Exit 1: no such alias.
            String value = new String(GitProcess.run(dir, timeout, new byte[0], 1, "config", "--get", "alias." + name),
                    StandardCharsets.UTF_8).strip();
            return value.isEmpty() ? Optional.empty() : Optional.of(value);
        } catch (GitException e) {
            return Optional.empty();
        }
    }
}
