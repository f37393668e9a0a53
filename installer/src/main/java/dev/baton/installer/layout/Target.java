package dev.baton.installer.layout;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What an install or uninstall acts on: which agents (an empty set means all of them), at which scope, for which
 * project directory.
 */
public record Target(Set<Agent> agents, Scope scope, Path project) {

    public Target {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(project, "project");
        agents = agents.isEmpty() ? EnumSet.allOf(Agent.class) : EnumSet.copyOf(agents);
        project = project.toAbsolutePath().normalize();
    }

    public boolean includes(Agent agent) {
        return agents.contains(agent);
    }

    public String describeAgents() {
        List<String> names = agents.stream().map(Agent::displayName).toList();
        return names.size() == 1 ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }
}
