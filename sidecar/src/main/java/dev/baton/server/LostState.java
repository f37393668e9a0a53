package dev.baton.server;

import dev.baton.home.BatonHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Refuses to start a sidecar that would come up silently empty: the home shows a sidecar ran here before
 * ({@code sidecar.lock}, which only a sidecar creates), yet the database is gone or empty, or the last sidecar
 * stopped uncleanly ({@code sidecar.pid} left naming a dead process) and its WAL, which holds the changes not yet
 * copied into the database, is missing. Starting anyway is {@code baton serve --accept-empty-state}.
 */
final class LostState {

    static final String ACCEPT_FLAG = "--accept-empty-state";

    private LostState() {
    }

    /** Called before the sidecar creates anything in the home. */
    static void check(BatonHome home) throws IOException {
        if (!Files.exists(home.lockFile())) {
            return; // no sidecar ever ran here: an empty database is a new one
        }
        Path db = home.database();
        if (!Files.exists(db) || Files.size(db) == 0) {
            throw refusal(db + (Files.exists(db) ? " is empty (0 bytes)" : " is missing") + ", but a sidecar ran in "
                    + home.dir() + " before (" + home.lockFile().getFileName() + " is there): every lock and session it"
                    + " held would be lost without a word", db);
        }
        Path wal = db.resolveSibling(db.getFileName() + "-wal");
        OptionalLong pid = home.readPid();
        boolean uncleanStop = pid.isPresent() && ProcessHandle.of(pid.getAsLong()).isEmpty();
        if (uncleanStop && !Files.exists(wal)) {
            throw refusal("the last sidecar in " + home.dir() + " (pid " + pid.getAsLong() + ") did not stop cleanly and"
                    + " its write-ahead log " + wal + " is missing: the changes it held (locks taken and released"
                    + " since its last checkpoint) would be lost without a word", db);
        }
    }

    private static IOException refusal(String what, Path db) {
        return new IOException("refusing to start: " + what + ". Restore " + db.getFileName() + " and its -wal file from a"
                + " backup if you have one; to start with whatever state is left (possibly none), run `baton serve "
                + ACCEPT_FLAG + "` once.");
    }
}
