package dev.baton.dashboard.ui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real git repository with committed files, and worktrees of it added with {@code git worktree add}. */
final class GitCopies {

    private final Path main;

    private GitCopies(Path main) {
        this.main = main;
    }

    /** A repository at {@code dir} on branch main, holding {@code files} committed. */
    static GitCopies create(Path dir, String... files) throws IOException {
        Files.createDirectories(dir);
        GitCopies repo = new GitCopies(dir.toRealPath());
        repo.git("init", "-q", "-b", "main");
        repo.git("config", "user.email", "test@example.com");
        repo.git("config", "user.name", "Test");
        repo.git("config", "commit.gpgsign", "false");
        for (String file : files) {
            Path path = repo.main.resolve(file);
            Files.createDirectories(path.getParent());
            Files.writeString(path, "original content of " + file + "\n", StandardCharsets.UTF_8);
        }
        repo.git("add", "-A");
        repo.git("commit", "-q", "--allow-empty", "-m", "initial");
        return repo;
    }

    /** The main worktree. */
    Path main() {
        return main;
    }

    /** Adds a worktree at {@code dir} on a new branch {@code branch}; its real path. */
    Path addWorktree(Path dir, String branch) throws IOException {
        git("worktree", "add", "-q", "-b", branch, dir.toString());
        return dir.toRealPath();
    }

    private void git(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git", "-C", main.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            byte[] output = git.getInputStream().readAllBytes();
            if (!git.waitFor(30, TimeUnit.SECONDS) || git.exitValue() != 0) {
                throw new IOException("git " + String.join(" ", args) + " failed: " + new String(output, StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running git", e);
        }
    }
}
