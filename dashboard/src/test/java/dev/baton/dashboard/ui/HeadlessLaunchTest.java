package dev.baton.dashboard.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton dashboard} started the way the CLI starts it, on a machine without a display. */
class HeadlessLaunchTest {

    @TempDir Path temp;

    record Run(int exit, String out, String err) {
    }

    /** The dashboard's entry point in a JVM of its own, with no DISPLAY and none of the tests' JavaFX settings. */
    private Run launch(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.baton.dashboard.DashboardLauncher"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("DISPLAY");
        builder.environment().remove("WAYLAND_DISPLAY");
        Path out = temp.resolve("out.txt");
        Path err = temp.resolve("err.txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the dashboard did not exit within 90 s: " + Files.readString(err));
        }
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void withoutADisplayTheDashboardSaysWhatIsWrongAndOffersTheScreenshotInsteadOfAStackTrace() throws Exception {
        Run run = launch("--url", "http://127.0.0.1:9", "--token", "unused");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("there is no display").contains("--screenshot").doesNotContain("Exception")
                .doesNotContain("\tat ");
    }

    @Test
    void aScreenshotIsRenderedWithoutADisplay() throws Exception {
        try (LiveSidecar sidecar = new LiveSidecar(temp.resolve("home")).start()) {
            Path picture = temp.resolve("dashboard.png");

            Run run = launch("--url", sidecar.base(), "--token", sidecar.token(), "--screenshot", picture.toString(),
                    "--size", "1440x900");

            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(run.err()).doesNotContain("Exception").doesNotContain("Unsupported JavaFX configuration");
            byte[] png = Files.readAllBytes(picture);
            assertThat(png.length).isGreaterThan(1000);
            assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
        }
    }
}
