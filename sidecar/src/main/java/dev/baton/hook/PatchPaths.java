package dev.baton.hook;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files an {@code apply_patch} patch writes: every {@code *** Add File:}, {@code *** Update File:},
 * {@code *** Delete File:} and {@code *** Move to:} line (Codex CLI and Copilot CLI use this patch format).
 */
public final class PatchPaths {

    private static final String BEGIN = "*** Begin Patch";
    private static final String END = "*** End Patch";
    private static final List<String> MARKERS = List.of(
            "*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:");
    private static final List<String> HEREDOC_STARTS = List.of("<<EOF", "<<'EOF'", "<<\"EOF\"");

    /**
     * A shell command that is an apply_patch heredoc, as Codex CLI runs one through its shell tool
     * ({@code exec_command}, reported as tool {@code Bash}): {@code apply_patch <<'EOF'} (or {@code applypatch}),
     * optionally after {@code cd DIR &&}, the patch, and the delimiter alone on the last line. Group 1 is DIR
     * (maybe quoted), group 3 the delimiter, group 4 the patch.
     */
    private static final Pattern SHELL_HEREDOC = Pattern.compile(
            "\\A\\s*(?:cd\\s+('[^']*'|\"[^\"]*\"|[^\\s;&|]+)\\s*&&\\s*)?apply_?patch\\s*<<-?\\s*(['\"]?)(\\w+)\\2[ \\t]*\\r?\\n"
                    + "(.*?)\\r?\\n[ \\t]*\\3[ \\t]*(?:\\r?\\n)?\\s*\\z",
            Pattern.DOTALL);

    private PatchPaths() {
    }

    /**
     * The files written by a shell command that is an apply_patch heredoc (see {@link #SHELL_HEREDOC}), relative
     * paths joined to its {@code cd} directory; empty when the command is anything else, which a shell analysis
     * then reads as it would any command.
     */
    public static Optional<List<String>> ofShellCommand(String command) {
        if (command == null || !looksLikePatch(command)) {
            return Optional.empty();
        }
        Matcher heredoc = SHELL_HEREDOC.matcher(command);
        if (!heredoc.matches()) {
            return Optional.empty();
        }
        String dir = unquoted(heredoc.group(1));
        List<String> files = new ArrayList<>();
        for (String path : of(heredoc.group(4))) {
            files.add(dir == null || path.startsWith("/") ? path : dir.replaceAll("/+$", "") + "/" + path);
        }
        return Optional.of(files);
    }

    private static String unquoted(String word) {
        if (word == null || word.length() < 2) {
            return word;
        }
        char first = word.charAt(0);
        return (first == '\'' || first == '"') && word.charAt(word.length() - 1) == first
                ? word.substring(1, word.length() - 1) : word;
    }

    public static boolean looksLikePatch(String text) {
        return text != null && text.contains(BEGIN);
    }

    /** The paths in the order they appear, each once, as written (usually relative to cwd). */
    public static List<String> of(String patch) {
        List<String> body = framedBody(patch);
        return body != null ? paths(body, true) : paths(List.of(patch.split("\n")), false);
    }

    /**
     * The lines inside the markers when the whole text is one patch as Codex CLI frames it (apply-patch's
     * parser.rs): the markers are the first and last lines of the trimmed text, or of what a heredoc's first line
     * ({@code <<EOF}, quoted or not) and last line (ending in EOF) wrap. So an indented last {@code *** End Patch}
     * ends an update, where elsewhere it is one of the update's context lines. Null when the text is not so framed.
     */
    private static List<String> framedBody(String text) {
        String trimmed = trim(text);
        if (trimmed.isEmpty()) {
            return null;
        }
        List<String> lines = new ArrayList<>();
        for (String line : trimmed.split("\n", -1)) {
            lines.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
        }
        List<String> body = between(lines);
        int last = lines.size() - 1;
        if (body == null && lines.size() >= 4 && HEREDOC_STARTS.contains(lines.get(0)) && lines.get(last).endsWith("EOF")) {
            body = between(lines.subList(1, last));
        }
        return body;
    }

    private static List<String> between(List<String> lines) {
        int last = lines.size() - 1;
        boolean framed = last >= 1 && trim(lines.get(0)).equals(BEGIN) && trim(lines.get(last)).equals(END);
        return framed ? lines.subList(1, last) : null;
    }

    private static List<String> paths(List<String> lines, boolean inPatch) {
        Set<String> paths = new LinkedHashSet<>();
        boolean inUpdate = false;
        for (String line : lines) {
            if (inUpdate && !line.startsWith("*")) {
                continue; // only a line starting with '*' ends an update: " *** Add File: x" is a context line
            }
            String trimmed = trim(line);
            if (trimmed.equals(BEGIN) || trimmed.equals(END)) {
                inPatch = trimmed.equals(BEGIN); // what surrounds a patch (a heredoc's EOF) names no file
                inUpdate = false;
                continue;
            }
            if (!inPatch) {
                continue;
            }
            for (String marker : MARKERS) {
                if (trimmed.startsWith(marker)) {
                    String path = trim(trimmed.substring(marker.length()));
                    if (!path.isEmpty()) {
                        paths.add(path);
                    }
                }
            }
            inUpdate = trimmed.startsWith("*** Update File:")
                    || inUpdate && (trimmed.startsWith("*** Move to:") || trimmed.equals("*** End of File"));
        }
        return new ArrayList<>(paths);
    }

    /**
     * Trims what the patch tools trim (Unicode White_Space): unlike String.strip, no-break spaces go and the
     * control characters U+001C to U+001F stay, so the path read is the file the tool writes.
     */
    private static String trim(String text) {
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

    private static boolean isWhiteSpace(char c) {
        return c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r' || c == '\u0085' || Character.isSpaceChar(c);
    }
}
