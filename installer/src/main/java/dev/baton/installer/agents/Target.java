package dev.baton.installer.agents;

import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What an install or uninstall acts on: which agents (at least one, in the order of the agents' list), at which
 * scope, for which project directory.
 */
public record Target(List<AgentWiring> agents, Scope scope, Path project) {

    public Target {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(project, "project");
        if (agents.isEmpty()) {
            throw new IllegalArgumentException("a target names at least one agent");
        }
        agents = List.copyOf(agents);
        project = project.toAbsolutePath().normalize();
    }

    public boolean includes(AgentWiring agent) {
        return agents.contains(agent);
    }

    public String describeAgents() {
        List<String> names = agents.stream().map(AgentWiring::displayName).toList();
        return names.size() == 1 ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }
}
