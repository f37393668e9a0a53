package dev.baton.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/** Whether a repository has hooks git runs (pre-commit, post-checkout…): code that a git command runs beside it. */
public final class RepoHooks {

    private RepoHooks() {
    }

    /**
     * True when {@code dir}'s repository has an executable hook that is not one of git's samples, or names a hooks
     * directory of its own in its configuration (core.hooksPath, as husky and pre-commit set it).
     */
    public static boolean present(Path dir) {
        Optional<Path> gitDir = RepoRoot.of(dir).flatMap(GitDir::of);
        if (gitDir.isEmpty()) {
            return false;
        }
        try {
            Path config = gitDir.get().resolve("config");
            if (Files.isRegularFile(config)
                    && Files.readString(config, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT).contains("hookspath")) {
                return true;
            }
            Path hooks = gitDir.get().resolve("hooks");
            if (!Files.isDirectory(hooks)) {
                return false;
            }
            try (Stream<Path> entries = Files.list(hooks)) {
                return entries.anyMatch(hook -> !hook.getFileName().toString().endsWith(".sample")
                        && Files.isRegularFile(hook) && Files.isExecutable(hook));
            }
        } catch (IOException e) {
            return true; // cannot tell: as if there were hooks, so the command is checked after it ran
        }
    }
}
