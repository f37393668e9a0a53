package dev.baton.dashboard.connection;

import dev.baton.dashboard.protocol.Frame;

/**
 * Where the dashboard is in the sidecar's event sequence, and what each incoming frame means for it.
 * It keeps the last sequence number applied, so a reconnection asks {@code since=} that and misses
 * nothing, and it notices gaps, duplicates and a sidecar whose numbering started over.
 */
public final class StreamCursor {

    /** What to do with a frame. */
    public enum Verdict {
        /** Hand it to the board. */
        APPLY,
        /** Already applied (a replay after resuming); drop it. */
        SKIP,
        /** Something was missed: reconnect with {@code since=}{@link #since()}. */
        RESUME,
        /** The sequence cannot be continued (a restarted sidecar): reconnect for a fresh snapshot. */
        RESTART
    }

    private Long lastSeq;
    private boolean firstFrameOfConnection;

    /** Called when a new connection opens, before its first frame. */
    public synchronized void connectionOpened() {
        firstFrameOfConnection = true;
    }

    public synchronized Verdict accept(Frame frame) {
        boolean first = firstFrameOfConnection;
        if (frame instanceof Frame.Snapshot) {
            firstFrameOfConnection = false;
            lastSeq = ((Frame.Snapshot) frame).seq();
            return Verdict.APPLY;
        }
        if (frame instanceof Frame.Resync) {
            // A resync straight after resuming means the sidecar cannot serve our since: take a snapshot.
            if (lastSeq == null || first) {
                lastSeq = null;
                return Verdict.RESTART;
            }
            return Verdict.RESUME;
        }
        if (!(frame instanceof Frame.Event)) {
            return Verdict.SKIP;
        }
        firstFrameOfConnection = false;
        long seq = ((Frame.Event) frame).seq();
        if (lastSeq == null) {
            return Verdict.RESTART;
        }
        if (seq == lastSeq + 1) {
            lastSeq = seq;
            return Verdict.APPLY;
        }
        if (first) {
            // A resumed connection must continue exactly where the last one stopped; anything else
            // means the sidecar's numbering is not the one we know (it restarted), so start over.
            lastSeq = null;
            return Verdict.RESTART;
        }
        return seq <= lastSeq ? Verdict.SKIP : Verdict.RESUME;
    }

    /** The {@code since} for the next connection: the last sequence number applied, or null for a snapshot. */
    public synchronized Long since() {
        return lastSeq;
    }

    /** Forget the position, so the next connection starts from a snapshot. */
    public synchronized void forget() {
        lastSeq = null;
    }
}
