package dev.baton.server;

import dev.baton.home.BatonHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Refuses to start a sidecar that would come up silently empty: the home shows a sidecar ran here before
 * ({@code sidecar.lock}, which only a sidecar creates once its tokens are good), yet the database is gone or
 * empty. Starting anyway is {@code baton serve --accept-empty-state}.
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
    }

    private static IOException refusal(String what, Path db) {
        return new IOException("refusing to start: " + what + ". Restore " + db.getFileName() + " and its -wal file from a"
                + " backup if you have one; to start with whatever state is left (possibly none), run `baton serve "
                + ACCEPT_FLAG + "` once.");
    }
}
