package dev.baton.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.git.TestRepo;
import dev.baton.home.BatonHome;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * A user's machine on which Baton was never run: an empty HOME, a PATH without {@code baton}, a git repository
 * standing in for the samples' {@code /home/dev/shop}, and the real {@code baton install}, {@code baton doctor}
 * and installed hook commands run the way the agents run them.
 */
final class FreshMachine implements AutoCloseable {

    static final String SAMPLE_CWD = "/home/dev/shop";
    static final String PATH_WITHOUT_BATON = "/usr/bin:/bin";

    final Path root;
    final Path home;
    final TestRepo repo;
    final int port;
    final Map<String, String> env = new HashMap<>();

    FreshMachine(Path root) throws IOException {
        this.root = root;
        this.home = Files.createDirectories(root.resolve("home"));
        this.repo = TestRepo.create(root.resolve("shop"), "src/main/java/shop/Cart.java", "README.md");
        this.port = freePort();
        env.put("HOME", home.toString());
        env.put("PATH", PATH_WITHOUT_BATON);
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("LANG", "C.UTF-8"); // a terminal's locale: doctor's check marks are UTF-8
        env.put("BATON_PORT", Integer.toString(port));
        // A cold JVM on a loaded build machine may need more than the default 6 s to start serving.
        env.put("BATON_HOOK_TIMEOUT", "60");
    }

    /** The hook script of this checkout, as the build packages it. */
    static Path hookScript() {
        return Path.of("..", "hook-scripts", "baton-hook").toAbsolutePath().normalize();
    }

    BatonHome batonHome() {
        return BatonHome.fromEnvironment(env);
    }

    /** {@code bin/baton install} of this checkout, as a new user runs it (the packaged {@code baton.jar}). */
    Result install(String... args) throws IOException, InterruptedException {
        return launch(Path.of("..", "bin", "baton").toAbsolutePath().normalize(), "install", args);
    }

    /** {@code baton doctor} through the launcher install put in {@code ~/.local/bin}. */
    Result doctor(String... args) throws IOException, InterruptedException {
        return launch(home.resolve(".local/bin/baton"), "doctor", args);
    }

    private Result launch(Path launcher, String command, String... args) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(launcher.toString(), command));
        line.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(line).directory(repo.root().toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        return run(builder, null, command);
    }

    JsonNode json(Path file) throws IOException {
        return new ObjectMapper().readTree(Files.readString(file));
    }

    /** A sample payload from the test resources, its project directory moved to the test repository. */
    String sample(String name) throws IOException {
        try (InputStream in = FreshMachine.class.getResourceAsStream("/hook-samples/" + name)) {
            if (in == null) {
                throw new IOException("no sample " + name + " in src/test/resources/hook-samples");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace(SAMPLE_CWD, repo.root().toString());
        }
    }

    /** Runs a hook command line as the agents do: {@code /bin/sh -c COMMAND}, the payload on stdin. */
    Result runHook(String command, String payload) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command).directory(repo.root().toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        return run(builder, payload, command);
    }

    private Result run(ProcessBuilder builder, String stdin, String what) throws IOException, InterruptedException {
        Path out = Files.createTempFile(root, "run", ".out");
        Path err = Files.createTempFile(root, "run", ".err");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try (OutputStream in = process.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!process.waitFor(300, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not finish within 300 s: " + what);
        }
        return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    String log() throws IOException {
        Path log = batonHome().logFile();
        return Files.exists(log) ? Files.readString(log) : "(no sidecar.log)";
    }

    /** Stops a sidecar that a hook started, by the pid it wrote. */
    @Override
    public void close() throws Exception {
        OptionalLong pid = batonHome().readPid();
        if (pid.isPresent()) {
            Optional<ProcessHandle> sidecar = ProcessHandle.of(pid.getAsLong());
            if (sidecar.isPresent()) {
                sidecar.get().destroy();
                sidecar.get().onExit().get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Exit code and what a command printed. */
    record Result(int exit, String out, String err) {
        boolean silent() {
            return exit == 0 && out.isEmpty() && err.isEmpty();
        }
    }
}
