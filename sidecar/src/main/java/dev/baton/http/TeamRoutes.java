package dev.baton.http;

import dev.baton.team.TeamLockSpace;
import dev.baton.team.TeamView;
import io.javalin.config.RoutesConfig;
import java.util.function.Consumer;

/** The team this sidecar belongs to, over HTTP: {@code GET /v1/team}; {@code {"enabled": false}} without one. */
public final class TeamRoutes {

    private TeamRoutes() {
    }

    public static Consumer<RoutesConfig> of(TeamLockSpace team) {
        return routes -> routes.get("/v1/team", ctx -> Bodies.reply(ctx, new Enabled(true, team.view())));
    }

    public static Consumer<RoutesConfig> none() {
        return routes -> routes.get("/v1/team", ctx -> Bodies.reply(ctx, new Enabled(false, null)));
    }

    /** The reply: {@code team} is null on a sidecar that shares nothing (no BATON_TEAM_URL). */
    record Enabled(boolean enabled, TeamView team) {
    }
}
