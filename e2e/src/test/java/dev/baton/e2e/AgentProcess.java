package dev.baton.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** A running agent CLI: its output collected line by line, its stdin open for more prompts until {@link #end}. */
public final class AgentProcess implements AutoCloseable {

    /** How long one agent turn may take on a loaded two-core machine. */
    static final Duration TURN = Duration.ofMinutes(3);

    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final String name;

    public AgentProcess(String name, Machine machine, List<String> command, Map<String, String> env) {
        this(name, machine, machine.repo, command, env);
    }

    /** Runs in {@code dir}, a working tree of the machine other than its repository (a linked worktree). */
    public AgentProcess(String name, Machine machine, Path dir, List<String> command, Map<String, String> env) {
        this.name = name;
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectErrorStream(true);
            builder.environment().clear();
            builder.environment().putAll(machine.env());
            builder.environment().putAll(env);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread reader = new Thread(this::collect, name + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    private void collect() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                synchronized (lines) {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            synchronized (lines) {
                lines.add("(output ended: " + e + ")");
            }
        }
    }

    public void send(String line) {
        try {
            OutputStream in = process.getOutputStream();
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(name + " no longer reads its input:\n" + output(), e);
        }
    }

    /** Waits until {@code count} output lines match; fails at once if the CLI exits first. */
    public void awaitLines(Predicate<String> match, int count) {
        await(name + " to print " + count + " matching lines").atMost(TURN).untilAsserted(() -> {
            long seen = output().lines().filter(match).count();
            if (seen < count && !process.isAlive()) {
                throw new AssertionError(name + " exited (" + process.exitValue() + ") early:\n" + tail());
            }
            assertThat(seen).as("lines so far:\n%s", tail()).isGreaterThanOrEqualTo(count);
        });
    }

    /** Closes stdin: the CLIs that read a prompt from it (Codex exec, Gemini) start once it ends. */
    public void closeInput() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** Closes stdin (the user leaves) and waits for the CLI to exit. */
    public int end() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already closed: it is ending anyway
        }
        return awaitExit();
    }

    public int awaitExit() {
        await(name + " to exit").atMost(TURN).untilAsserted(() ->
                assertThat(process.isAlive()).as("still running; printed so far:\n%s", tail()).isFalse());
        return process.exitValue();
    }

    public String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    private String tail() {
        String all = output();
        return all.length() > 6000 ? "…" + all.substring(all.length() - 6000) : all;
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
            await().atMost(Duration.ofSeconds(30)).until(() -> !process.isAlive());
        }
    }
}
