package dev.baton.version;

import java.time.Instant;

/**
 * The last version Baton kept of one file: whose it is ({@code sessionId}, the holder whose edit or lock it came
 * from), its content's SHA-256 ({@code hash}, null when the file was too large to keep), its size and permission
 * bits, and when it was kept. {@code changedBy} names the session whose command last changed the file behind its
 * holder's back, until the holder restores it or keeps a new version.
 */
public record KeptVersion(String file, String sessionId, String hash, long size, int mode, Instant keptAt,
                          String changedBy, Instant changedAt) {

    public boolean kept() {
        return hash != null;
    }

    KeptVersion changedBy(String writer, Instant at) {
        return new KeptVersion(file, sessionId, hash, size, mode, keptAt, writer, at);
    }

    KeptVersion restored() {
        return new KeptVersion(file, sessionId, hash, size, mode, keptAt, null, null);
    }
}
