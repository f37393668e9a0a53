package dev.baton.hook;

import dev.baton.lock.CanonicalPath;
import dev.baton.lock.HeldMessage;
import dev.baton.lock.LockResult;
import dev.baton.negotiation.Negotiation;
import dev.baton.state.BatonException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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

    /**
     * @param ownSubagents the holders that are subagents of the session asking
     * @param pending the session's open negotiation for a blocked file, by file: it is shown instead of the
     *                advice to negotiate, which the session has followed already
     */
    static String of(List<LockResult> blocked, int filesInEdit, String cwd, Instant now, Set<String> ownSubagents,
                     Map<String, Negotiation> pending) {
        Path base = canonicalCwd(cwd);
        String held = blocked.stream()
                .map(result -> {
                    String shown = shown(result.file(), base);
                    String heldFile = result.sameFileAs() == null ? null : shown(result.sameFileAs(), base);
                    if (ownSubagents.contains(result.holder().session())) {
                        return heldByOwnSubagent(heldFile == null ? shown : heldFile, result.holder().session());
                    }
                    if (result.copyOf() != null) {
                        return HeldMessage.ofCopy(shown, result.copyOf(), now);
                    }
                    Negotiation asked = pending.get(result.file());
                    return asked == null ? HeldMessage.of(shown, heldFile, result.holder(), now)
                            : HeldMessage.of(shown, result.holder(), now, pendingStep(asked, shown, now));
                })
                .collect(Collectors.joining(". "));
        StringBuilder text = new StringBuilder("Baton blocked this edit: ").append(held).append('.');
        if (filesInEdit > 1) {
            text.append(" This edit writes ").append(filesInEdit)
                    .append(" files and needs all of them, so none was locked for it.");
        }
        return text.toString();
    }

    /** Where the session's own request for the file stands, and what it can do next. */
    private static String pendingStep(Negotiation asked, String shown, Instant now) {
        String state = asked.status(now).name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        StringBuilder step = new StringBuilder("you asked for it already (negotiation ").append(asked.id())
                .append(", ").append(state).append(", asked ").append(HeldMessage.ago(asked.createdAt(), now)).append(" ago");
        if (asked.etaMinutes() != null) {
            step.append(", the holder expects to be done in ").append(asked.etaMinutes()).append(" min");
        }
        if (now.isBefore(asked.timeoutAt())) {
            step.append("); no need to ask again: its answer reaches you on a later tool call, and if none comes, you may"
                    + " take the file with `baton force-release ").append(HeldMessage.quoted(shown)).append("` in ")
                    .append(HeldMessage.ago(now, asked.timeoutAt())).append(". Meanwhile work on something else");
        } else {
            step.append("); the holder did not give it up in time: take it with `baton force-release ")
                    .append(HeldMessage.quoted(shown)).append('`');
        }
        return step.toString();
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
