package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.protocol.TeamInfo;
import java.time.Instant;

/**
 * One row of the team's machine table: a sidecar of the team, its lease and what its sessions hold.
 *
 * @param local this sidecar's own machine
 * @param lease "valid", or "expired": the machine stopped renewing, and its files may be taken
 */
public record TeamMachineRow(String machine, boolean local, String host, String lease, Instant leaseUntil,
                             Instant renewedAt, int sessions, int locks) {

    public static TeamMachineRow of(TeamInfo.Machine machine, String thisMachine) {
        return new TeamMachineRow(machine.machine(), machine.machine() != null && machine.machine().equals(thisMachine),
                TeamLockRow.orEmpty(machine.host()), machine.leaseValid() ? "valid" : "expired", machine.leaseUntil(),
                machine.renewedAt(), machine.sessions(), machine.locks());
    }

    /** The name, with "(this machine)" on the dashboard's own. */
    public String shownMachine() {
        return local ? machine + " (this machine)" : machine;
    }

    public boolean leaseExpired() {
        return "expired".equals(lease);
    }
}
