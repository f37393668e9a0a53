package dev.baton.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one fuzz target did in one run: inputs executed, answers by kind, and how long it took.
 * The figures go to standard output and to {@code target/fuzz-summary.txt}, for the reliability report.
 */
final class FuzzRun {

    private final String target;
    private final Instant started = Instant.now();
    private final AtomicLong executed = new AtomicLong();
    private final AtomicLong waited = new AtomicLong();
    private final Map<String, Long> outcomes = new TreeMap<>();

    FuzzRun(String target) {
        this.target = target;
    }

    void executed() {
        executed.incrementAndGet();
    }

    /** A request that asked to wait, answered once the harness freed every lock. */
    void waited() {
        waited.incrementAndGet();
    }

    synchronized void answered(Object outcome) {
        outcomes.merge(String.valueOf(outcome), 1L, Long::sum);
    }

    synchronized void report() {
        String mode = isFuzzing() ? "fuzzing" : "regression";
        String line = String.format("%s %s: %d inputs executed in %d s; outcomes %s; waits cut short by freeing locks %d%n", target, mode,
                executed.get(), Duration.between(started, Instant.now()).toSeconds(), outcomes, waited.get());
        System.out.print("FUZZ " + line);
        try {
            Path summary = Path.of("target", "fuzz-summary.txt");
            Files.createDirectories(summary.getParent());
            Files.writeString(summary, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean isFuzzing() {
        String fuzz = System.getenv("JAZZER_FUZZ");
        return fuzz != null && !fuzz.isBlank() && !fuzz.equals("0") && !fuzz.equalsIgnoreCase("false");
    }
}
