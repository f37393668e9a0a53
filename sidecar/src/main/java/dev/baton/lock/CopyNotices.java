package dev.baton.lock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * What a session hears, once, when another session starts changing a file it is changing, in another copy of the
 * repository on another branch: that the two changes will meet at the merge, and with whom to settle it.
 */
public final class CopyNotices {

    private final Map<String, List<String>> pending = new HashMap<>();

    synchronized void tell(HeldCopy holder, FileCopy taker, Holder takerHolder) {
        String line = "Baton: " + taker.path() + ", which you are changing here, is now also being changed in another"
                + " copy of this repository: " + who(takerHolder) + " in " + taker.worktree() + on(taker.branch())
                + ". Both edits go ahead, since the copies are on different branches, and they will meet at the merge."
                + " Agree who changes what with `baton msg send " + takerHolder.session() + " \"…\"`, or leave the file"
                + " to one of you.";
        pending.computeIfAbsent(holder.holder().session(), id -> new ArrayList<>()).add(line);
    }

    /**
     * What the session that just took {@code shownFile} reads: who else is changing it in which copy, how far that copy
     * has moved from the merge base ({@code linesThere}, when known), and what to do.
     */
    public static String forTaker(String shownFile, HeldCopy other, OptionalInt linesThere) {
        return "Baton: " + shownFile + " is also being changed in another copy of this repository: " + who(other.holder())
                + " in " + other.worktree() + on(other.branch())
                + (linesThere.isPresent() ? " (" + linesThere.getAsInt() + " line" + (linesThere.getAsInt() == 1 ? "" : "s")
                + " differ there from the merge base)" : "")
                + ". Your edit goes ahead, since the copies are on different branches, but the two changes will meet at the"
                + " merge. Agree who changes what with `baton msg send " + other.holder().session() + " \"…\"` (or ask for"
                + " the file with `baton negotiate " + HeldMessage.quoted(other.file()) + " --reason \"…\"`), or leave"
                + " this file to it.";
    }

    /** The lines for the session, once. */
    public synchronized List<String> take(String sessionId) {
        List<String> lines = pending.remove(sessionId);
        return lines == null ? List.of() : lines;
    }

    /** "claude-code session 3f2a9c1e… "NAME"". */
    public static String who(Holder holder) {
        StringBuilder text = new StringBuilder(holder.agent() == null ? "session" : holder.agent() + " session")
                .append(' ').append(HeldMessage.shortId(holder.session()));
        if (holder.name() != null && !holder.name().isBlank()) {
            text.append(" \"").append(holder.name()).append('"');
        }
        return text.toString();
    }

    /** " on branch B", or nothing before a first commit. */
    public static String on(String branch) {
        if (branch == null) {
            return "";
        }
        return branch.matches("[0-9a-f]{40,64}") ? " at commit " + branch.substring(0, 12) : " on branch " + branch;
    }
}
