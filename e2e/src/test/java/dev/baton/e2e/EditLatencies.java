package dev.baton.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The per-edit times {@link AgentEditBench} measured, and their summary: per agent, with Baton on and off, the
 * median and p90 over every round, each round's median, and what Baton adds (median on − median off, and on/off).
 * Medians and a nearest-rank p90 of a few hundred numbers are a sort and an index; no statistics library needed.
 */
final class EditLatencies {

    /** One edit: model's answer with the tool call sent → next turn request (with the tool result) received. */
    record Sample(BenchedAgent agent, boolean baton, int round, int edit, double ms) {}

    /** One line of the summary. {@code added} and {@code ratio} are set on the Baton-on line only. */
    record Row(BenchedAgent agent, boolean baton, int edits, double median, double p90, List<Double> roundMedians,
            Double added, Double ratio) {}

    private final List<Sample> samples = new ArrayList<>();

    void add(BenchedAgent agent, boolean baton, int round, List<Double> ms) {
        for (int i = 0; i < ms.size(); i++) {
            samples.add(new Sample(agent, baton, round, i + 1, ms.get(i)));
        }
    }

    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (BenchedAgent agent : BenchedAgent.values()) {
            List<Double> on = times(agent, true, 0);
            List<Double> off = times(agent, false, 0);
            if (on.isEmpty() || off.isEmpty()) {
                continue;
            }
            double medianOn = percentile(on, 50);
            double medianOff = percentile(off, 50);
            rows.add(new Row(agent, true, on.size(), medianOn, percentile(on, 90), roundMedians(agent, true),
                    medianOn - medianOff, medianOn / medianOff));
            rows.add(new Row(agent, false, off.size(), medianOff, percentile(off, 90), roundMedians(agent, false),
                    null, null));
        }
        return rows;
    }

    /** The summary as a Markdown table, as docs/PERFORMANCE.md shows it. */
    String table() {
        StringBuilder table = new StringBuilder(
                "| agent | Baton | edits | median ms | p90 ms | round medians ms | added ms per edit | on/off |\n"
                        + "|---|---|---:|---:|---:|---|---:|---:|\n");
        for (Row row : rows()) {
            table.append(String.format(Locale.ROOT, "| %s | %s | %d | %.1f | %.1f | %s | %s | %s |%n",
                    row.agent().label, row.baton() ? "on" : "off", row.edits(), row.median(), row.p90(),
                    String.join(", ", row.roundMedians().stream().map(EditLatencies::ms).toList()),
                    row.added() == null ? "" : String.format(Locale.ROOT, "%+.1f", row.added()),
                    row.ratio() == null ? "" : String.format(Locale.ROOT, "%.2f×", row.ratio())));
        }
        return table.toString();
    }

    /** Writes {@code bench-STAMP.tsv} (the summary) and {@code bench-STAMP-edits.tsv} (every edit) into {@code dir}. */
    List<Path> write(Path dir, String stamp) {
        StringBuilder summary = new StringBuilder(
                "agent\tbaton\tedits\tmedian_ms\tp90_ms\tround_medians_ms\tadded_ms\tratio\n");
        for (Row row : rows()) {
            summary.append(String.join("\t", row.agent().label, row.baton() ? "on" : "off",
                    Integer.toString(row.edits()), ms(row.median()), ms(row.p90()),
                    String.join(",", row.roundMedians().stream().map(EditLatencies::ms).toList()),
                    row.added() == null ? "" : ms(row.added()),
                    row.ratio() == null ? "" : String.format(Locale.ROOT, "%.3f", row.ratio()))).append('\n');
        }
        StringBuilder edits = new StringBuilder("agent\tbaton\tround\tedit\tms\n");
        for (Sample sample : samples) {
            edits.append(String.join("\t", sample.agent().label, sample.baton() ? "on" : "off",
                    Integer.toString(sample.round()), Integer.toString(sample.edit()),
                    String.format(Locale.ROOT, "%.3f", sample.ms()))).append('\n');
        }
        try {
            Files.createDirectories(dir);
            Path summaryFile = Files.writeString(dir.resolve("bench-" + stamp + ".tsv"), summary);
            Path editsFile = Files.writeString(dir.resolve("bench-" + stamp + "-edits.tsv"), edits);
            return List.of(summaryFile, editsFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The times of one agent with Baton on or off; round 0 means every round. */
    private List<Double> times(BenchedAgent agent, boolean baton, int round) {
        return samples.stream()
                .filter(s -> s.agent() == agent && s.baton() == baton && (round == 0 || s.round() == round))
                .map(Sample::ms).toList();
    }

    private List<Double> roundMedians(BenchedAgent agent, boolean baton) {
        return samples.stream().filter(s -> s.agent() == agent && s.baton() == baton).map(Sample::round)
                .distinct().sorted().map(round -> percentile(times(agent, baton, round), 50)).toList();
    }

    /** The median (mean of the middle two for an even count) or the nearest-rank percentile. */
    static double percentile(List<Double> values, int p) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        if (p == 50) {
            return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        }
        int rank = (int) Math.ceil(p / 100.0 * n);
        return sorted.get(Math.max(rank, 1) - 1);
    }

    private static String ms(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
