package dev.baton.dashboard.protocol;

/** The reply of {@code GET /v1/team}: {@code team} is null when the sidecar shares its locks with no other. */
public record TeamReply(boolean enabled, TeamInfo team) {

    /** What a sidecar without a team answers (and what an older sidecar without the route means). */
    public static TeamReply none() {
        return new TeamReply(false, null);
    }

    public boolean inTeam() {
        return enabled && team != null;
    }
}
