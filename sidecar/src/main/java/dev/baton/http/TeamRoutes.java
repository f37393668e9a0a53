package dev.baton.http;

import dev.baton.team.TeamLockSpace;
import io.javalin.config.RoutesConfig;
import java.util.function.Consumer;

/** The team this sidecar belongs to, over HTTP: {@code GET /v1/team} (only mounted in team mode). */
public final class TeamRoutes {

    private TeamRoutes() {
    }

    public static Consumer<RoutesConfig> of(TeamLockSpace team) {
        return routes -> routes.get("/v1/team", ctx -> Bodies.reply(ctx, team.view()));
    }
}
