package dev.baton.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows printed as aligned columns under a header, as a person reads a listing; the header is bold on a terminal unless
 * {@code NO_COLOR} is set. Written by hand: picocli's TextTable lays out help text in columns of fixed widths, not a
 * table sized to its data.
 */
final class Table {

    private static final String BOLD = "\u001b[1m";
    private static final String PLAIN = "\u001b[0m";

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... header) {
        this.header = List.of(header);
    }

    Table row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (Object cell : cells) {
            row.add(cell == null ? "-" : cell.toString());
        }
        rows.add(row);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(PrintWriter out) {
        int[] widths = new int[header.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = header.get(c).length();
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        boolean colour = onTerminal();
        out.println((colour ? BOLD : "") + line(header, widths) + (colour ? PLAIN : ""));
        rows.forEach(row -> out.println(line(row, widths)));
    }

    private static String line(List<String> cells, int[] widths) {
        StringBuilder text = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            text.append(c == cells.size() - 1 ? cells.get(c) : String.format("%-" + widths[c] + "s  ", cells.get(c)));
        }
        return text.toString().stripTrailing();
    }

    /** Whether standard output is a terminal that may show colour: a tty, and NO_COLOR (no-color.org) unset. */
    static boolean onTerminal() {
        String noColor = System.getenv("NO_COLOR");
        if (noColor != null && !noColor.isEmpty()) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
