package dev.baton.session;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/** The kinds a session may register as: the agents the sidecar was given, then its own CLI and API clients. */
public final class AgentKinds {

    private final List<AgentKind> known;

    public AgentKinds(List<AgentKind> agents) {
        this.known = Stream.concat(agents.stream(), Stream.of(AgentKind.CLI, AgentKind.API)).distinct().toList();
    }

    /** The known kind a request names, in any case and surrounding blanks; empty for a name no kind has. */
    public Optional<AgentKind> fromWireName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        return known.stream().filter(kind -> kind.wireName().equals(wanted)).findFirst();
    }

    /** The known wire names, for a message that names what a request may give. */
    public String allWireNames() {
        return String.join(", ", known.stream().map(AgentKind::wireName).toList());
    }
}
