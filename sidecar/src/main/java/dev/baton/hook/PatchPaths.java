package dev.baton.hook;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The files an {@code apply_patch} patch writes: every {@code *** Add File:}, {@code *** Update File:},
 * {@code *** Delete File:} and {@code *** Move to:} line (Codex CLI and Copilot CLI use this patch format).
 */
final class PatchPaths {

    private static final List<String> MARKERS = List.of(
            "*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:");

    private PatchPaths() {
    }

    static boolean looksLikePatch(String text) {
        return text != null && text.contains("*** Begin Patch");
    }

    /** The paths in the order they appear, each once, as written (usually relative to cwd). */
    static List<String> of(String patch) {
        Set<String> paths = new LinkedHashSet<>();
        boolean inPatch = false;
        boolean inUpdate = false;
        for (String line : patch.split("\n")) {
            if (inUpdate && !line.startsWith("*")) {
                continue; // only a line starting with '*' ends an update: " *** Add File: x" is a context line
            }
            String trimmed = trim(line);
            if (trimmed.equals("*** Begin Patch") || trimmed.equals("*** End Patch")) {
                inPatch = trimmed.equals("*** Begin Patch"); // what surrounds a patch (a heredoc's EOF) names no file
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
