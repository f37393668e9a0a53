package dev.baton.session;

/** What an agent (or the CLI, or an API client) says about itself when it registers a session. */
public record Registration(
        String id,
        AgentKind agent,
        ProcessIdentity process,
        String host,
        String cwd,
        String repoRoot,
        String name,
        String parentId) {
}
