package dev.baton.hook;

import dev.baton.session.AgentKind;
import dev.baton.session.AgentKinds;
import dev.baton.state.BatonException;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The agents' dialects the sidecar speaks, in detection order. The sidecar knows agents only through this list:
 * which names a hook call may give, which dialect reads a call, whether the caller is the agent itself, the kinds of
 * session the agents register, and what each agent reports.
 */
public final class Dialects {

    private final List<Dialect> inOrder;
    private final AgentKinds kinds;

    /** @param dialects in the order their agents are named to a client that gives an unknown one */
    public Dialects(List<Dialect> dialects) {
        this.inOrder = dialects.stream().sorted(Comparator.comparingInt(Dialect::precedence)).toList();
        this.kinds = new AgentKinds(dialects.stream().map(Dialect::agent).distinct().toList());
    }

    /** The kinds of session the agents register, beside the sidecar's own CLI and API clients. */
    public AgentKinds kinds() {
        return kinds;
    }

    /**
     * Whether the agent of this kind reports the end of its shell commands; a kind no dialect has (the CLI and API
     * clients) runs none through the agent's tools, and is taken to.
     */
    public boolean reportsShellCommandEnd(AgentKind agent) {
        return inOrder.stream().filter(dialect -> dialect.agent().equals(agent)).allMatch(Dialect::reportsShellCommandEnd);
    }

    /** The agent names a hook call may give, as in {@code baton-hook AGENT EVENT}. */
    public Set<String> names() {
        return inOrder.stream().map(Dialect::name).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The dialect that reads this call: the first, in precedence order, that recognises it. */
    public Dialect detect(String agentArg, HookPayload payload) {
        for (Dialect dialect : inOrder) {
            if (dialect.recognises(agentArg, payload)) {
                return dialect;
            }
        }
        throw BatonException.invalid("no agent's hooks send this payload (agent '" + agentArg + "')");
    }

    /** Whether a call naming this agent comes from inside the agent's own process. */
    boolean runsInAgent(String agentArg) {
        return inOrder.stream().anyMatch(dialect -> dialect.name().equals(agentArg) && dialect.runsInAgent());
    }

    /** Refuses an agent name no dialect answers to. */
    void requireKnown(String agentArg) {
        if (agentArg == null || !names().contains(agentArg)) {
            throw BatonException.invalid("agent must be one of " + String.join(", ", names()) + ", was '" + agentArg + "'");
        }
    }
}
