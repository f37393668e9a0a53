package dev.baton.team;

import dev.baton.home.BatonHome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * How far this sidecar read the team's event log, kept in {@code BATON_HOME/team-position} (this class is the file's
 * only writer and reader): a sidecar that starts again delivers what was sent to its machine's sessions while it was
 * not running. One line, the team's database as {@link TeamUrl#shown()} names it and the last event number read; a
 * position of another database is no position.
 */
final class TeamPosition {

    static final TeamPosition NONE = new TeamPosition(null, null);
    private static final String FILE = "team-position";

    private final BatonHome home;
    private final String database;

    private TeamPosition(BatonHome home, String database) {
        this.home = home;
        this.database = database;
    }

    /** The position in {@code home} of the log of the team's database as {@code url} names it. */
    static TeamPosition in(BatonHome home, TeamUrl url) {
        return new TeamPosition(home, url.shown());
    }

    OptionalLong read() {
        if (home == null) {
            return OptionalLong.empty();
        }
        try {
            String line = Files.readString(home.dir().resolve(FILE), StandardCharsets.UTF_8).strip();
            int space = line.lastIndexOf(' ');
            if (space > 0 && line.substring(0, space).equals(database)) {
                return OptionalLong.of(Long.parseLong(line.substring(space + 1)));
            }
        } catch (IOException | NumberFormatException missingOrDamaged) {
            // no position: the sidecar starts from the newest event, as at its first join
        }
        return OptionalLong.empty();
    }

    void write(long seq) throws IOException {
        if (home != null) {
            Path file = home.dir().resolve(FILE);
            home.writeAtomically(file, database + " " + seq + "\n");
        }
    }
}
