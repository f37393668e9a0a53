package dev.baton.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.dashboard.view.Page;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DashboardOptionsTest {

    @Test
    void withoutFlagsTheSidecarIsFoundThroughBatonHome() {
        DashboardOptions options = DashboardOptions.parse();

        assertThat(options.locator(Map.of("BATON_HOME", "/srv/baton")).describe()).isEqualTo("/srv/baton");
        assertThat(options.dark()).isTrue();
        assertThat(options.page()).isEqualTo(Page.OVERVIEW);
        assertThat(options.screenshot()).isNull();
    }

    @Test
    void urlAndTokenPointAtOneSidecarAndScreenshotTakesAFile() {
        DashboardOptions options = DashboardOptions.parse("--url", "127.0.0.1:7433", "--token", "t",
                "--screenshot", "docs/dashboard.png", "--theme", "light", "--page", "locks", "--size", "1600x1000");

        assertThat(options.locator(Map.of()).locate().base()).hasToString("http://127.0.0.1:7433");
        assertThat(options.screenshot()).isEqualTo(Path.of("docs/dashboard.png"));
        assertThat(options.dark()).isFalse();
        assertThat(options.page()).isEqualTo(Page.LOCKS);
        assertThat(options.width()).isEqualTo(1600);
        assertThat(options.height()).isEqualTo(1000);
    }

    @Test
    void aUrlWithoutATokenIsRefusedWithWhereTheTokenIs() {
        assertThatThrownBy(() -> DashboardOptions.parse("--url", "http://127.0.0.1:7433"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--url needs --token").hasMessageContaining("$BATON_HOME/token");
    }

    @Test
    void anUnknownPageOrThemeIsRefusedNamingTheChoices() {
        assertThatThrownBy(() -> DashboardOptions.parse("--page", "graphs"))
                .hasMessageContaining("overview, sessions, locks");
        assertThatThrownBy(() -> DashboardOptions.parse("--theme", "blue"))
                .hasMessageContaining("dark or light");
    }
}
