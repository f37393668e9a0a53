package dev.baton.cli;

import picocli.CommandLine.Option;

/** The options of every verb that acts for an agent session: which one, and its key (else process ancestry proves it). */
final class AgentOptions {

    @Option(names = "--session", paramLabel = "ID",
            description = "Act for this session (default: the agent this shell belongs to, else this terminal).")
    String session;

    @Option(names = "--key", paramLabel = "KEY", description = "The session's key; not needed from the agent's own shell.")
    String key;

    AgentCaller resolve(SidecarClient client) {
        return AgentCaller.resolve(client, session, key);
    }
}
