package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.protocol.TeamInfo;
import dev.baton.dashboard.protocol.TeamReply;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.ObservableList;

/**
 * The team this sidecar shares its locks with, as the window shows it: every machine, every session and file held
 * anywhere in the team, and how the sidecar's link to the team's database stands. Fed with the replies of
 * {@code GET /v1/team} on the FX thread. Without a team it stays disabled and empty, so nothing of it shows.
 */
public final class TeamModel {

    private final DateTimeFormatter clock;
    private final BooleanProperty known = new SimpleBooleanProperty();
    private final BooleanProperty enabled = new SimpleBooleanProperty();
    private final BooleanProperty connected = new SimpleBooleanProperty();
    private final StringProperty machine = new SimpleStringProperty("");
    private final StringProperty headline = new SimpleStringProperty("");
    private final StringProperty detail = new SimpleStringProperty("");
    private final KeyedRows<String, TeamMachineRow> machines = new KeyedRows<>(TeamMachineRow::machine);
    private final KeyedRows<String, TeamSessionRow> sessions = new KeyedRows<>(TeamSessionRow::key);
    private final KeyedRows<String, TeamLockRow> locks = new KeyedRows<>(TeamLockRow::key);
    private TeamInfo last;
    private String pollProblem;

    public TeamModel(ZoneId zone) {
        this.clock = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(zone);
    }

    /** A reply of the sidecar: the team as it is now, or no team. */
    public void apply(TeamReply reply, Instant now) {
        pollProblem = null;
        known.set(true);
        if (!reply.inTeam()) {
            // The sidecar left the team (restarted without BATON_TEAM_URL) or never was in one.
            last = null;
            machines.sync(List.of());
            sessions.sync(List.of());
            locks.sync(List.of());
            machine.set("");
            enabled.set(false);
            connected.set(false);
            describe(now);
            return;
        }
        TeamInfo team = reply.team();
        last = team;
        String here = team.machine();
        machine.set(here == null ? "" : here);
        machines.sync(team.machines().stream().map(m -> TeamMachineRow.of(m, here))
                .sorted(Comparator.comparing(TeamMachineRow::local).reversed().thenComparing(TeamMachineRow::machine))
                .toList());
        sessions.sync(team.sessions().stream().map(s -> TeamSessionRow.of(s, here)).toList());
        locks.sync(team.locks().stream().map(l -> TeamLockRow.of(l, here)).toList());
        connected.set(team.connected());
        enabled.set(true);
        describe(now);
    }

    /**
     * The sidecar did not answer. The last known team stays on show, marked as such: the event stream's status
     * already says the sidecar is gone, and emptying the tables would hide what was held.
     */
    public void pollFailed(Throwable error, Instant now) {
        pollProblem = error.getMessage() == null ? error.toString() : error.getMessage();
        describe(now);
    }

    /** Moves "unreachable since … (40 s ago)" to the clock's current instant. */
    public void tick(Instant now) {
        if (last != null && !last.connected()) {
            describe(now);
        }
    }

    private void describe(Instant now) {
        if (last == null) {
            headline.set("");
            detail.set("");
            return;
        }
        String host = last.host() == null || last.host().isBlank() ? "" : " (" + last.host() + ")";
        if (last.connected()) {
            headline.set("Connected to the team as " + last.machine() + host);
        } else if (last.unreachableSince() != null) {
            headline.set("Team database unreachable since " + clock.format(last.unreachableSince()) + " ("
                    + RelativeTime.ago(last.unreachableSince(), now) + "); this machine is " + last.machine() + host);
        } else {
            headline.set("Team database unreachable; this machine is " + last.machine() + host);
        }
        List<String> parts = new ArrayList<>();
        if (!last.connected() && last.lastError() != null && !last.lastError().isBlank()) {
            parts.add(last.lastError());
        }
        if (last.machinesError() != null && !last.machinesError().isBlank()) {
            parts.add("machines not listed: " + last.machinesError());
        }
        if (pollProblem != null) {
            parts.add("last known team; the sidecar did not answer: " + pollProblem);
        }
        parts.add(settings(last));
        detail.set(String.join(" · ", parts));
    }

    /** "postgresql://db/baton · TTL 2 min · scope repository · strict · 3 claimed here · 1 unsynced". */
    private static String settings(TeamInfo team) {
        List<String> parts = new ArrayList<>();
        parts.add(team.url());
        parts.add("lease " + RelativeTime.span(Duration.ofSeconds(team.ttlSeconds())));
        parts.add("scope " + team.scope());
        if (team.strict()) {
            parts.add("strict");
        }
        parts.add(team.claimed() + " claimed here");
        if (team.unsynced() > 0) {
            parts.add(team.unsynced() + " unsynced");
        }
        return String.join(" · ", parts);
    }

    /** Whether the sidecar has answered at least once, so that "no team" is its word and not a guess. */
    public ReadOnlyBooleanProperty knownProperty() {
        return known;
    }

    public ReadOnlyBooleanProperty enabledProperty() {
        return enabled;
    }

    public ReadOnlyBooleanProperty connectedProperty() {
        return connected;
    }

    /** This sidecar's machine name in the team; empty without a team. */
    public ReadOnlyStringProperty machineProperty() {
        return machine;
    }

    public ReadOnlyStringProperty headlineProperty() {
        return headline;
    }

    public ReadOnlyStringProperty detailProperty() {
        return detail;
    }

    public ObservableList<TeamMachineRow> machines() {
        return machines.rows();
    }

    public ObservableList<TeamSessionRow> sessions() {
        return sessions.rows();
    }

    public ObservableList<TeamLockRow> locks() {
        return locks.rows();
    }
}
