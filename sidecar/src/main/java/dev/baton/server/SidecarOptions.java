package dev.baton.server;

import dev.baton.home.BatonHome;
import dev.baton.liveness.HolderLiveness;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.liveness.ProcessLiveness;
import dev.baton.lock.BranchRule;
import dev.baton.team.TeamSettings;
import java.nio.channels.ServerSocketChannel;
import java.time.Clock;
import java.time.Duration;

/**
 * How to run one sidecar; tests swap the clock, the port and the sweep interval. {@code inheritedListener}, when
 * not null, is served instead of binding {@code port} ({@link InheritedListener}).
 */
public record SidecarOptions(
        BatonHome home,
        int port,
        Clock clock,
        ProcessLiveness processes,
        Duration heartbeatTtl,
        Duration sweepEvery,
        boolean acceptEmptyState,
        ServerSocketChannel inheritedListener,
        TeamSettings team,
        BranchRule branches) {

    public SidecarOptions(BatonHome home, int port, Clock clock, ProcessLiveness processes, Duration heartbeatTtl,
                          Duration sweepEvery) {
        this(home, port, clock, processes, heartbeatTtl, sweepEvery, false, null, null, BranchRule.TELL);
    }

    /**
     * The production options; the heartbeat TTL comes from {@code BATON_HEARTBEAT_TTL} when it is set, the team from
     * {@code BATON_TEAM_URL} and its companions ({@link TeamSettings}), the rule for other branches' copies from
     * {@code BATON_BRANCHES} ({@link BranchRule#fromEnvironment}).
     */
    public static SidecarOptions defaults(BatonHome home, int port) {
        return new SidecarOptions(home, port, Clock.systemUTC(), new OsProcessLiveness(),
                HolderLiveness.heartbeatTtl(System.getenv()), Duration.ofSeconds(5))
                .inTeam(TeamSettings.fromEnvironment(System.getenv()).orElse(null))
                .withBranches(BranchRule.fromEnvironment(System.getenv()));
    }

    /** What an edit of a file another copy of the repository changes on another branch means ({@link BranchRule}). */
    public SidecarOptions withBranches(BranchRule rule) {
        return new SidecarOptions(home, port, clock, processes, heartbeatTtl, sweepEvery, acceptEmptyState,
                inheritedListener, team, rule);
    }

    /** Shares the lock space with the other sidecars of a team; null for one machine alone. */
    public SidecarOptions inTeam(TeamSettings settings) {
        return new SidecarOptions(home, port, clock, processes, heartbeatTtl, sweepEvery, acceptEmptyState,
                inheritedListener, settings, branches);
    }

    /** Starts even when the database looks as if it lost what an earlier sidecar held ({@link dev.baton.home.StateCheck}). */
    public SidecarOptions acceptingEmptyState() {
        return new SidecarOptions(home, port, clock, processes, heartbeatTtl, sweepEvery, true, inheritedListener, team, branches);
    }

    public SidecarOptions withClock(Clock newClock) {
        return new SidecarOptions(home, port, newClock, processes, heartbeatTtl, sweepEvery, acceptEmptyState, inheritedListener, team, branches);
    }

    public SidecarOptions withHeartbeatTtl(Duration ttl) {
        return new SidecarOptions(home, port, clock, processes, ttl, sweepEvery, acceptEmptyState, inheritedListener, team, branches);
    }

    public SidecarOptions withSweepEvery(Duration every) {
        return new SidecarOptions(home, port, clock, processes, heartbeatTtl, every, acceptEmptyState, inheritedListener, team, branches);
    }

    /** Serves {@code listener} (already bound to 127.0.0.1) instead of binding the port. */
    public SidecarOptions servingInherited(ServerSocketChannel listener) {
        return new SidecarOptions(home, port, clock, processes, heartbeatTtl, sweepEvery, acceptEmptyState, listener, team, branches);
    }
}
