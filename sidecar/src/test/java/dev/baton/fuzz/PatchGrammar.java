package dev.baton.fuzz;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The files an {@code apply_patch} patch writes, read by the grammar the applying tools follow
 * (Codex CLI's lenient parser: markers may be padded with whitespace, an update ends only at a line
 * starting with {@code *}, context lines start with a space). Written independently of the
 * production reader so the two can be compared; null when the tools would reject the patch, which
 * then writes nothing.
 */
final class PatchGrammar {

    private static final String BEGIN = "*** Begin Patch";
    private static final String END = "*** End Patch";
    private static final String ADD = "*** Add File: ";
    private static final String DELETE = "*** Delete File: ";
    private static final String UPDATE = "*** Update File: ";
    private static final String MOVE = "*** Move to: ";

    private PatchGrammar() {
    }

    static List<String> paths(String patch) {
        List<String> lines = lines(trim(patch));
        List<String> body = body(lines);
        if (body == null) {
            List<String> heredoc = lines.size() >= 4 && List.of("<<EOF", "<<'EOF'", "<<\"EOF\"").contains(lines.get(0))
                    && lines.get(lines.size() - 1).endsWith("EOF") ? body(lines.subList(1, lines.size() - 1)) : null;
            if (heredoc == null) {
                return null;
            }
            body = heredoc;
        }
        Set<String> paths = new LinkedHashSet<>();
        int i = 0;
        while (i < body.size()) {
            String header = trim(body.get(i));
            i++;
            if (header.startsWith(ADD)) {
                paths.add(header.substring(ADD.length()));
                while (i < body.size() && body.get(i).startsWith("+")) {
                    i++;
                }
            } else if (header.startsWith(DELETE)) {
                paths.add(header.substring(DELETE.length()));
            } else if (header.startsWith(UPDATE)) {
                paths.add(header.substring(UPDATE.length()));
                if (i < body.size() && body.get(i).startsWith(MOVE)) {
                    // The tools keep whitespace ending a Move to line in the new name; no real name ends so.
                    paths.add(trim(body.get(i).substring(MOVE.length())));
                    i++;
                }
                int end = updateEnd(body, i);
                if (end < 0) {
                    return null;
                }
                i = end;
            } else {
                return null;
            }
        }
        return new ArrayList<>(paths);
    }

    /** Where an update's chunks end, or -1 when they are malformed (or there are none). */
    private static int updateEnd(List<String> body, int start) {
        int i = start;
        int chunks = 0;
        while (i < body.size()) {
            String line = body.get(i);
            if (trim(line).isEmpty()) {
                i++;
                continue;
            }
            if (line.startsWith("*")) {
                break;
            }
            if (line.equals("@@") || line.startsWith("@@ ")) {
                i++;
            } else if (chunks > 0) {
                return -1;
            }
            int changed = 0;
            while (i < body.size()) {
                String change = body.get(i);
                if (change.equals("*** End of File")) {
                    if (changed == 0) {
                        return -1;
                    }
                    i++;
                    break;
                }
                if (change.isEmpty() || change.startsWith(" ") || change.startsWith("+") || change.startsWith("-")) {
                    changed++;
                    i++;
                } else if (changed == 0) {
                    return -1;
                } else {
                    break;
                }
            }
            if (changed == 0) {
                return -1;
            }
            chunks++;
        }
        return chunks == 0 ? -1 : i;
    }

    private static List<String> body(List<String> lines) {
        if (lines.size() < 2 || !trim(lines.get(0)).equals(BEGIN) || !trim(lines.get(lines.size() - 1)).equals(END)) {
            return null;
        }
        return lines.subList(1, lines.size() - 1);
    }

    /** Lines split at \n, each without a \r before it; a trailing line break makes no empty line. */
    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        if (text.isEmpty()) {
            return lines;
        }
        for (String line : text.split("\n", -1)) {
            lines.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
        }
        if (text.endsWith("\n")) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    /** Trims Unicode White_Space (what the applying tools trim), which is not what String.strip removes. */
    static String trim(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && isWhiteSpace(text.charAt(start))) {
            start++;
        }
        while (end > start && isWhiteSpace(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(start, end);
    }

    static boolean isWhiteSpace(char c) {
        return c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r' || c == 0x85 || Character.isSpaceChar(c);
    }
}
