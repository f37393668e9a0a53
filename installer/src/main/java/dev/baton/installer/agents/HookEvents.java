package dev.baton.installer.agents;

import java.util.List;

/**
 * The events Baton registers its hook for in one agent, as its CLI names them; each agent's package lists its own.
 * Tool events are limited to the edit and shell tools.
 *
 * @param dialect the agent word the hook command passes on ({@code baton-hook DIALECT EVENT})
 * @param events  the events, in the order they are written
 */
public record HookEvents(String dialect, List<EventHook> events) {

    /**
     * One event; {@code matcher} is null for events that are not about a tool; the timeout is in the CLI's unit.
     * {@code blocksOnFailure}: the CLI is told to block the tool call when the hook cannot start, times out or exits
     * with a code the hook protocol does not know (Claude Code's {@code onFailure: "block"}, 2.1.295 and later).
     */
    public record EventHook(String event, String matcher, int timeout, boolean blocksOnFailure) {

        public EventHook(String event, String matcher, int timeout) {
            this(event, matcher, timeout, false);
        }
    }
}
