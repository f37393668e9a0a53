package dev.baton.negotiation;

import java.time.Instant;

/**
 * A request from a session of another machine for a file a session of this machine holds, as the holder's machine
 * receives it: {@code file} is this machine's path of it, {@code holderId} the session the request names.
 */
public record RemoteRequest(String id, String file, String requesterId, String requesterMachine, String requesterAgent,
                            String holderId, String reason, Urgency urgency, Instant createdAt, Instant timeoutAt) {
}
