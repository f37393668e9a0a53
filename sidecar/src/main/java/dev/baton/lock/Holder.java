package dev.baton.lock;

import dev.baton.naming.SessionName;
import java.time.Instant;

/**
 * Who holds a file, as a blocked caller needs to see it: enough to judge whether to wait or ask. {@code machine} names
 * the sidecar's machine when another machine of the team holds it (null for this machine); {@code note} says what
 * else the caller must know about such a hold (the team database unreachable, this machine's lease lapsed). A holder
 * whose {@code alive} is {@link #RELEASED} holds nothing any more: the file is refused for the reason in {@code note}
 * (another machine's last commit of it is missing here).
 */
public record Holder(
        String session,
        String agent,
        Long pid,
        String alive,
        String host,
        String cwd,
        Instant since,
        Instant lastEdit,
        Instant lastHeartbeat,
        String name,
        String plan,
        String machine,
        String note) {

    public static final String RELEASED = "released";

    /** The holder as a person reads it ({@code claude-code 3f2a9c1e}, or its given name); the wire's {@code label}. */
    public String label() {
        return SessionName.of(agent, session, name);
    }

    public Holder(String session, String agent, Long pid, String alive, String host, String cwd, Instant since,
                  Instant lastEdit, Instant lastHeartbeat, String name, String plan) {
        this(session, agent, pid, alive, host, cwd, since, lastEdit, lastHeartbeat, name, plan, null, null);
    }
}
