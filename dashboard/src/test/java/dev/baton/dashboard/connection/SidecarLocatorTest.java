package dev.baton.dashboard.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SidecarLocatorTest {

    @Test
    void theHomeLocatorReadsEndpointAndTokenAfreshOnEveryAttempt(@TempDir Path home) throws Exception {
        SidecarLocator locator = SidecarLocator.home(home);
        assertThatThrownBy(locator::locate).isInstanceOf(SidecarUnavailableException.class)
                .hasMessageContaining("no sidecar is running for " + home).hasMessageContaining("baton serve");

        Files.writeString(home.resolve("endpoint"), "127.0.0.1:4000\n");
        Files.writeString(home.resolve("token"), "secret\n");
        assertThat(locator.locate()).isEqualTo(new SidecarAddress(java.net.URI.create("http://127.0.0.1:4000"), "secret"));

        Files.writeString(home.resolve("endpoint"), "127.0.0.1:4001\n");
        assertThat(locator.locate().base()).hasToString("http://127.0.0.1:4001");
    }

    @Test
    void theDefaultHomeFollowsTheSidecarsRule() {
        assertThat(SidecarLocator.defaultHome(Map.of("BATON_HOME", "/x/b", "HOME", "/h"))).isEqualTo(Path.of("/x/b"));
        assertThat(SidecarLocator.defaultHome(Map.of("XDG_STATE_HOME", "/s", "HOME", "/h"))).isEqualTo(Path.of("/s/baton"));
        assertThat(SidecarLocator.defaultHome(Map.of("HOME", "/h"))).isEqualTo(Path.of("/h/.local/state/baton"));
    }
}
