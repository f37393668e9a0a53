package dev.baton.team;

import java.time.Instant;

/**
 * A machine of the team as the database knows it: its lease (on the database's clock) and what its sessions hold.
 *
 * @param sessions the sessions of the machine that hold at least one file
 */
public record TeamMachine(String machine, String host, Instant leaseUntil, boolean leaseValid, Instant renewedAt,
                          int sessions, int locks) {
}
