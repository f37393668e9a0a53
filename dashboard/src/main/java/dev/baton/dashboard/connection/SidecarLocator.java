package dev.baton.dashboard.connection;

import dev.baton.home.BatonHome;
import java.io.IOException;
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
        BatonHome home = new BatonHome(dir);
        return new SidecarLocator() {
            @Override
            public SidecarAddress locate() {
                try {
                    String endpoint = home.readEndpoint().orElseThrow(() -> new SidecarUnavailableException(
                            "no sidecar is running for " + dir + " (no endpoint file); start one with `baton serve`"));
                    // The supervisor's token: the dashboard's actions (freeing a lock, ending a session) are the person's.
                    java.util.Optional<String> supervisor = home.readSupervisorToken();
                    String token = supervisor.isPresent() ? supervisor.get() : home.readToken().orElseThrow(() ->
                            new SidecarUnavailableException("the token file " + home.tokenFile()
                                    + " is missing; start the sidecar with `baton serve`"));
                    return SidecarAddress.of(endpoint, token);
                } catch (IOException e) {
                    throw new SidecarUnavailableException("cannot read " + dir + ": " + e.getMessage());
                }
            }

            @Override
            public String describe() {
                return dir.toString();
            }
        };
    }

    /** BATON_HOME, else $XDG_STATE_HOME/baton, else ~/.local/state/baton: the sidecar's own rule. */
    static Path defaultHome(Map<String, String> env) {
        return BatonHome.fromEnvironment(env).dir();
    }
}
