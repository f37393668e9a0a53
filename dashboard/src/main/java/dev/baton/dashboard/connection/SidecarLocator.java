package dev.baton.dashboard.connection;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Finds the sidecar before every connection attempt. Reading BATON_HOME each time matters: a restarted
 * sidecar on port 0 announces a new port in {@code endpoint}.
 */
@FunctionalInterface
public interface SidecarLocator {

    /** @throws SidecarUnavailableException with a sentence saying what to do when there is none */
    SidecarAddress locate();

    /** A description for the status bar, e.g. the home directory or the URL. */
    default String describe() {
        return "the sidecar";
    }

    static SidecarLocator fixed(String url, String token) {
        SidecarAddress address = SidecarAddress.of(url, token);
        return new SidecarLocator() {
            @Override
            public SidecarAddress locate() {
                return address;
            }

            @Override
            public String describe() {
                return address.base().toString();
            }
        };
    }

    /** The sidecar announced by {@code endpoint} and {@code token} in a BATON_HOME directory. */
    static SidecarLocator home(Path dir) {
        return new SidecarLocator() {
            @Override
            public SidecarAddress locate() {
                String endpoint = read(dir.resolve("endpoint"));
                if (endpoint == null) {
                    throw new SidecarUnavailableException("no sidecar is running for " + dir
                            + " (no endpoint file); start one with `baton serve`");
                }
                String token = read(dir.resolve("token"));
                if (token == null) {
                    throw new SidecarUnavailableException("the token file " + dir.resolve("token")
                            + " is missing; start the sidecar with `baton serve`");
                }
                return SidecarAddress.of(endpoint, token);
            }

            @Override
            public String describe() {
                return dir.toString();
            }
        };
    }

    /** BATON_HOME, else $XDG_STATE_HOME/baton, else ~/.local/state/baton: the sidecar's own rule. */
    static Path defaultHome(Map<String, String> env) {
        String explicit = env.get("BATON_HOME");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String state = env.get("XDG_STATE_HOME");
        if (state != null && !state.isBlank()) {
            return Path.of(state, "baton");
        }
        return Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".local", "state", "baton");
    }

    private static String read(Path file) {
        try {
            if (!Files.exists(file)) {
                return null;
            }
            String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
            return text.isEmpty() ? null : text;
        } catch (IOException e) {
            throw new SidecarUnavailableException("cannot read " + file + ": " + e.getMessage());
        }
    }
}
