package dev.baton.deadlock;

/**
 * A lock space shared with other machines that also shares the wait-for graph (team mode): it follows this machine's
 * waits and hands the team's edges back through {@link Deadlocks#teamWaits}.
 */
public interface WaitSharing {

    void shareWaitsOf(Deadlocks deadlocks);
}
