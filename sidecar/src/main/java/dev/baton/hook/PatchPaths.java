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
        for (String line : patch.split("\n")) {
            String trimmed = line.strip();
            for (String marker : MARKERS) {
                if (trimmed.startsWith(marker)) {
                    String path = trimmed.substring(marker.length()).strip();
                    if (!path.isEmpty()) {
                        paths.add(path);
                    }
                }
            }
        }
        return new ArrayList<>(paths);
    }
}
