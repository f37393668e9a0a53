package dev.baton.hook;

import dev.baton.lock.CanonicalPath;
import dev.baton.lock.HeldMessage;
import dev.baton.lock.LockResult;
import dev.baton.state.BatonException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The text a denied agent reads: each blocked file, who holds it and the next step. Files are shown relative
 * to the agent's working directory (the repository root, as agents usually run), so the suggested
 * {@code baton negotiate FILE} works when the agent runs it as printed; files elsewhere are shown absolute.
 */
final class DenyReason {

    private DenyReason() {
    }

    /** @param ownSubagents the holders that are subagents of the session asking */
    static String of(List<LockResult> blocked, int filesInEdit, String cwd, Instant now, Set<String> ownSubagents) {
        Path base = canonicalCwd(cwd);
        String held = blocked.stream()
                .map(result -> ownSubagents.contains(result.holder().session())
                        ? heldByOwnSubagent(shown(result.file(), base), result.holder().session())
                        : HeldMessage.of(shown(result.file(), base), result.holder(), now))
                .collect(Collectors.joining(". "));
        StringBuilder text = new StringBuilder("Baton blocked this edit: ").append(held).append('.');
        if (filesInEdit > 1) {
            text.append(" This edit writes ").append(filesInEdit)
                    .append(" files and needs all of them, so none was locked for it.");
        }
        return text.toString();
    }

    /** A parent is not in conflict with its subagent: it waits for the file to come back to it. */
    private static String heldByOwnSubagent(String shownFile, String subagent) {
        return shownFile + " is being edited by your own subagent " + subagent + "; it passes to you when that"
                + " subagent finishes, so let it finish (or edit the file through it) and then edit it again";
    }

    static String shown(String file, Path base) {
        Path path = Path.of(file);
        return base != null && path.startsWith(base) && !path.equals(base) ? base.relativize(path).toString() : file;
    }

    private static Path canonicalCwd(String cwd) {
        if (cwd == null) {
            return null;
        }
        try {
            return Path.of(CanonicalPath.of(cwd, null));
        } catch (BatonException e) {
            return null;
        }
    }
}
