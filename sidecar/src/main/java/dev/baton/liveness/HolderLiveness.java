package dev.baton.liveness;

import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import java.time.Duration;
import java.time.Instant;

/**
 * Decides whether a session still counts as holding its locks: its process (pid and start
 * instant) must be running, and it must have been heard from within the heartbeat TTL.
 */
public final class HolderLiveness {

    public static final Duration DEFAULT_HEARTBEAT_TTL = Duration.ofMinutes(30);

    private final ProcessLiveness processes;
    private final Duration heartbeatTtl;

    public HolderLiveness(ProcessLiveness processes, Duration heartbeatTtl) {
        this.processes = processes;
        this.heartbeatTtl = heartbeatTtl;
    }

    public Liveness processOf(Session session) {
        return processOf(session.process());
    }

    public Liveness processOf(ProcessIdentity process) {
        return process == null ? Liveness.UNKNOWN : processes.of(process);
    }

    public Staleness of(Session session, Instant now) {
        if (processOf(session).isGone()) {
            return Staleness.PROCESS_EXITED;
        }
        if (session.lastHeartbeat().plus(heartbeatTtl).isBefore(now)) {
            return Staleness.HEARTBEAT_EXPIRED;
        }
        return Staleness.FRESH;
    }

    public Duration heartbeatTtl() {
        return heartbeatTtl;
    }
}
