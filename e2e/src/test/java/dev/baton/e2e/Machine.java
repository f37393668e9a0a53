package dev.baton.e2e;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A new user's machine: a fresh HOME, a git repository to work in, and Baton installed from this checkout with
 * {@code baton install}. No sidecar runs until an agent's hook starts one; {@link #close()} stops it.
 */
public final class Machine implements AutoCloseable {

    /** Seconds a hook may take. The agents' own hook timeouts, as installed, are 30 s; the hook must end first. */
    static final String HOOK_BUDGET = "9";
    /** Seconds a hook may wait for the sidecar it starts, also under the agents' 30 s. */
    static final String START_BUDGET = "20";

    /** The ports machines take their sidecar's from: below the ephemeral range, above most services' own. */
    private static final int FIXED_PORTS_FROM = 20000;
    private static final int FIXED_PORTS_TO = 32000;

    /**
     * Where the search for the next machine's port goes on: each machine of this run gets a port of its own, and
     * two runs on one host most likely start apart.
     */
    private static final AtomicInteger NEXT_PORT =
            new AtomicInteger(FIXED_PORTS_FROM + ThreadLocalRandom.current().nextInt(FIXED_PORTS_TO - FIXED_PORTS_FROM));

    public final Path home;
    public final Path repo;
    public final int batonPort;
    private final Path checkout;
    /** Settings of this machine beyond a new user's (a team's BATON_TEAM_URL): every process of it starts with them. */
    private final Map<String, String> settings = new HashMap<>();

    public Machine(Path root) {
        try {
            home = Files.createDirectories(root.resolve("home"));
            repo = Files.createDirectories(root.resolve("repo"));
            checkout = Path.of(System.getProperty("baton.checkout", "..")).toRealPath();
            batonPort = freePort();
            run(repo, List.of("git", "init", "-q", "-b", "main"));
            Files.writeString(repo.resolve("README.md"), "A project.\n");
            run(repo, List.of("git", "add", "."));
            run(repo, List.of("git", "-c", "user.email=e2e@baton.invalid", "-c", "user.name=e2e", "commit", "-q",
                    "-m", "Start"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The environment every process of this machine starts with: nothing of the build's own. */
    Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("PATH", AgentClis.binDir() + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("LANG", "C.UTF-8");
        env.put("TERM", "dumb");
        env.put("NO_COLOR", "1");
        env.put("BATON_PORT", Integer.toString(batonPort));
        env.put("BATON_HOOK_TIMEOUT", HOOK_BUDGET);
        env.put("BATON_HOOK_START_TIMEOUT", START_BUDGET);
        String javaHome = System.getProperty("java.home");
        env.put("JAVA_HOME", javaHome);
        env.put("GIT_AUTHOR_NAME", "e2e");
        env.put("GIT_AUTHOR_EMAIL", "e2e@baton.invalid");
        env.put("GIT_COMMITTER_NAME", "e2e");
        env.put("GIT_COMMITTER_EMAIL", "e2e@baton.invalid");
        env.putAll(settings);
        return env;
    }

    /** Sets {@code name} in the environment of every process of this machine from now on (its agents, their hooks). */
    public Machine set(String name, String value) {
        settings.put(name, value);
        return this;
    }

    /** Runs the checkout's {@code bin/baton install} with these agent flags, as the README says. */
    public String install(String... flags) {
        List<String> command = new ArrayList<>(List.of(checkout.resolve("bin/baton").toString(), "install"));
        command.addAll(List.of(flags));
        return run(repo, command);
    }

    /** Runs the checkout's {@code bin/baton} (e.g. {@code locks --json}) as the user of this machine. */
    public String baton(String... args) {
        List<String> command = new ArrayList<>(List.of(checkout.resolve("bin/baton").toString()));
        command.addAll(List.of(args));
        try {
            return run(repo, command);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(withSidecarLog(e.getMessage()), e);
        }
    }

    /** The files locked now, relative to the repository, each with " [editing]" while an edit is in flight. */
    public List<String> locks() {
        JsonNode reply = parse(baton("locks", "--json"));
        List<String> files = new ArrayList<>();
        for (JsonNode lock : reply.path("locks")) {
            String file = repo.relativize(Path.of(lock.path("file").asText())).toString();
            files.add(file + (lock.path("edit_in_flight").asBoolean() ? " [editing]" : ""));
        }
        return files;
    }

    /** The session holding {@code file} (relative to the repository), or null. */
    public String holderOf(String file) {
        for (JsonNode lock : parse(baton("locks", "--json")).path("locks")) {
            if (repo.relativize(Path.of(lock.path("file").asText())).toString().equals(file)) {
                return lock.path("holder").path("session").asText(null);
            }
        }
        return null;
    }

    /** The files locked now, relative to the repository, whether or not an edit is in flight. */
    public List<String> lockedFiles() {
        return locks().stream().map(lock -> lock.replace(" [editing]", "")).toList();
    }

    public String read(String file) {
        return read(repo, file);
    }

    /** {@code file} (relative to the working tree {@code tree}, e.g. a linked worktree), or null. */
    public String read(Path tree, String file) {
        try {
            Path path = tree.resolve(file);
            return Files.exists(path) ? Files.readString(path) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void write(String file, String text) {
        try {
            Files.writeString(Files.createDirectories(repo.resolve(file).getParent()).resolve(repo.resolve(file).getFileName()), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A second working tree of the repository, {@code git worktree add ../NAME -b BRANCH} as a user makes one: beside
     * the repository, on a new branch from the current commit.
     */
    public Path worktree(String name, String branch) {
        run(repo, List.of("git", "worktree", "add", "-q", "../" + name, "-b", branch));
        return repo.resolveSibling(name);
    }

    /** Commits everything, so every file is clean again. */
    public void commitAll() {
        run(repo, List.of("git", "add", "-A"));
        run(repo, List.of("git", "commit", "-q", "-m", "Work"));
    }

    public Path stateDir() {
        return home.resolve(".local/state/baton");
    }

    public String sidecarLog() {
        try {
            Path log = stateDir().resolve("sidecar.log");
            return Files.exists(log) ? Files.readString(log) : "(no sidecar log)";
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** {@code text} followed by the sidecar's log: what a failed scenario's message shows. */
    public String withSidecarLog(String text) {
        return text + "\n--- the sidecar's log:\n" + sidecarLog();
    }

    /** A failed assertion's description: everything the agent sent its model, then the sidecar's log. */
    public Supplier<String> explain(FakeModel model) {
        return () -> withSidecarLog(model.everythingSent());
    }

    public String run(Path dir, List<String> command) {
        return run(dir, command, "");
    }

    /** Runs a command of this machine with {@code input} on its stdin; fails unless it exits 0. */
    public String run(Path dir, List<String> command, String input) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
            builder.environment().clear();
            builder.environment().putAll(env());
            Process process = builder.start();
            try (var stdin = process.getOutputStream()) {
                stdin.write(input.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new IllegalStateException(command + " failed (" + process.exitValue() + "):\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static JsonNode parse(String text) {
        try {
            return FakeModel.JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("not JSON: " + text, e);
        }
    }

    /**
     * A port free now, below the kernel's ephemeral range (32768–60999 on Linux). The sidecar binds it only when a
     * hook starts one, seconds later; a port of the ephemeral range may meanwhile be given to any program binding
     * port 0 (another scenario's fake model, an agent's own listener), and this machine's sidecar could not start.
     * Nothing is given a port below that range unless it asks for that very port.
     */
    private static int freePort() throws IOException {
        for (int tries = 0; tries < FIXED_PORTS_TO - FIXED_PORTS_FROM; tries++) {
            int port = NEXT_PORT.getAndUpdate(p -> p + 1 < FIXED_PORTS_TO ? p + 1 : FIXED_PORTS_FROM);
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            } catch (BindException inUse) {
                // taken: the next one
            }
        }
        throw new IOException("no free port in " + FIXED_PORTS_FROM + "–" + FIXED_PORTS_TO);
    }

    /** Stops the sidecar the hooks started (by the pid it recorded), and waits until it is gone. */
    @Override
    public void close() {
        Path pidFile = stateDir().resolve("sidecar.pid");
        try {
            if (!Files.exists(pidFile)) {
                return;
            }
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            ProcessHandle.of(pid).ifPresent(sidecar -> {
                sidecar.destroy();
                await().atMost(Duration.ofSeconds(30)).until(() -> !sidecar.isAlive());
            });
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("cannot stop the sidecar of " + home, e);
        }
    }
}
