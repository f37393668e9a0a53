package dev.baton.negotiation;

import dev.baton.state.World;
import java.security.SecureRandom;

/** Short ids people and agents can type ({@code n-k3x9qa}), without look-alike characters. */
final class NegotiationIds {

    private static final char[] CHARS = "abcdefghjkmnpqrstuvwxyz23456789".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int ATTEMPTS = 100;

    private NegotiationIds() {
    }

    static String next(World world) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            StringBuilder id = new StringBuilder("n-");
            for (int i = 0; i < 6; i++) {
                id.append(CHARS[RANDOM.nextInt(CHARS.length)]);
            }
            if (world.find(NegotiationRows.NEGOTIATIONS, id.toString()).isEmpty()) {
                return id.toString();
            }
        }
        throw new IllegalStateException("no free negotiation id after " + ATTEMPTS + " random draws");
    }
}
