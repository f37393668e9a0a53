package dev.baton.lock;

import dev.baton.naming.SessionName;
import java.time.Duration;
import java.time.Instant;

/**
 * The sentence a blocked caller reads: which file, who holds it, since when, whether the holder is
 * alive, what it is doing, and the next step. Hooks, the CLI and the API all say it the same way.
 */
public final class HeldMessage {

    private HeldMessage() {
    }

    public static String of(String shownFile, Holder holder, Instant now) {
        return of(shownFile, holder, now, askFor(shownFile));
    }

    /** A blocked file that may be another path to the held file {@code shownHeldFile} (null when it is not). */
    public static String of(String shownFile, String shownHeldFile, Holder holder, Instant now) {
        return of(blockedFile(shownFile, shownHeldFile), holder, now, askFor(shownHeldFile == null ? shownFile : shownHeldFile));
    }

    /**
     * A blocked file whose lock is shared with the same file in another copy of the repository (a clone on the same
     * branch, or any copy where every branch is locked), held there.
     */
    public static String ofCopy(String shownFile, HeldCopy copy, Instant now) {
        return shownFile + " is the same file as " + copy.file() + " in another copy of this repository ("
                + copy.worktree() + CopyNotices.on(copy.branch()) + "), which shares its lock, and that is "
                + heldBy(copy.holder(), now) + "; " + askFor(copy.file());
    }

    /** The same with another next step (e.g. the state of a request the caller has made already). */
    public static String of(String shownFile, Holder holder, Instant now, String nextStep) {
        if (Holder.RELEASED.equals(holder.alive()) && holder.note() != null) {
            return shownFile + " is free, but " + holder.note();
        }
        return shownFile + " is " + heldBy(holder, now) + "; " + nextStep;
    }

    /** The usual next step for a file someone else holds. */
    public static String askFor(String shownFile) {
        return "ask for it with `baton negotiate " + quoted(shownFile)
                + " --reason \"…\"`, or work on something else and try again later";
    }

    /** "held by AGENT session ID "NAME" (pid P, alive, held for T, last edit T ago, plan: '…')". */
    public static String heldBy(Holder holder, Instant now) {
        StringBuilder text = new StringBuilder("held by ");
        text.append(holder.agent() == null ? "session" : holder.agent() + " session").append(' ').append(shortId(holder.session()));
        if (holder.name() != null && !holder.name().isBlank()) {
            text.append(" \"").append(holder.name()).append('"');
        }
        if (holder.machine() != null) {
            text.append(" on machine ").append(holder.machine());
        }
        text.append(" (");
        if (holder.pid() != null) {
            text.append("pid ").append(holder.pid()).append(", ");
        }
        text.append(holder.alive() == null ? "unknown" : holder.alive());
        if (holder.since() != null) {
            text.append(", held for ").append(ago(holder.since(), now));
        }
        if (holder.lastEdit() != null) {
            text.append(", last edit ").append(ago(holder.lastEdit(), now)).append(" ago");
        }
        if (holder.plan() != null && !holder.plan().isBlank()) {
            text.append(", plan: '").append(holder.plan()).append('\'');
        }
        text.append(')');
        if (holder.note() != null) {
            text.append("; ").append(holder.note());
        }
        return text.toString();
    }

    /** How a blocked file is named: as given, and when it is another path to a held file, which one. */
    static String blockedFile(String shownFile, String shownHeldFile) {
        return shownHeldFile == null ? shownFile
                : shownFile + " (the same file as " + shownHeldFile + ", through a hard link or a bind mount)";
    }

    /** A session id as a person reads it: see {@link SessionName#shortId}. */
    public static String shortId(String id) {
        return SessionName.shortId(id);
    }

    /** A duration as the messages show it: seconds, minutes or hours. */
    public static String ago(Instant then, Instant now) {
        long seconds = Math.max(0, Duration.between(then, now).toSeconds());
        if (seconds < 90) {
            return seconds + " s";
        }
        if (seconds < 90 * 60) {
            return (seconds / 60) + " min";
        }
        return (seconds / 3600) + " h";
    }

    public static String quoted(String file) {
        return file.matches("[A-Za-z0-9_./@+-]+") ? file : "'" + file.replace("'", "'\\''") + "'";
    }
}
