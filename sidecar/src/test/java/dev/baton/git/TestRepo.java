package dev.baton.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A real git repository in a temporary directory, with a committed file tree to edit. */
public final class TestRepo {

    private final Path root;

    private TestRepo(Path root) {
        this.root = root;
    }

    /** Creates a repository at {@code dir} (its real path) holding the given files, all committed. */
    public static TestRepo create(Path dir, String... committedFiles) throws IOException {
        Files.createDirectories(dir);
        TestRepo repo = new TestRepo(dir.toRealPath());
        repo.git("init", "-q", "-b", "main");
        repo.git("config", "user.email", "test@example.com");
        repo.git("config", "user.name", "Test");
        repo.git("config", "commit.gpgsign", "false");
        for (String file : committedFiles) {
            repo.write(file, "original content of " + file + "\n");
        }
        repo.git("add", "-A");
        repo.git("commit", "-q", "--allow-empty", "-m", "initial");
        return repo;
    }

    /** A repository that exists already at {@code root} (a clone, a worktree). */
    public static TestRepo at(Path root) throws IOException {
        return new TestRepo(root.toRealPath());
    }

    public Path root() {
        return root;
    }

    public Path path(String relative) {
        return root.resolve(relative);
    }

    public void write(String relative, String content) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    public String git(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            byte[] output = git.getInputStream().readAllBytes();
            if (!git.waitFor(30, TimeUnit.SECONDS) || git.exitValue() != 0) {
                throw new IOException("git " + String.join(" ", args) + " failed: " + new String(output, StandardCharsets.UTF_8));
            }
            return new String(output, StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running git", e);
        }
    }
}
