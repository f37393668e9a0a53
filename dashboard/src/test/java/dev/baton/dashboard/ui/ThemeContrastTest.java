package dev.baton.dashboard.ui;

import static dev.baton.dashboard.WireFrames.deadlockedPair;
import static dev.baton.dashboard.WireFrames.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.DashboardWindow;
import dev.baton.dashboard.connection.SidecarLocator;
import dev.baton.dashboard.view.Page;
import dev.baton.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The real window in the light theme and then the dark one, fed with protocol frames: text readable on its colour. */
@ExtendWith(ApplicationExtension.class)
class ThemeContrastTest {

    /** WCAG's least contrast for normal text (AA). */
    private static final double READABLE = 4.5;
    private static final String A = "aaaaaaaa-1";
    private static final String B = "bbbbbbbb-2";

    @TempDir
    Path home;

    private DashboardWindow window;

    @Start
    void start(Stage stage) {
        window = new DashboardWindow(SidecarLocator.home(home), new MutableClock(Instant.parse("2025-01-01T10:00:00Z")), false);
        window.show(stage, 1280, 800, Page.OVERVIEW);
    }

    @AfterEach
    void stop() throws Exception {
        WaitForAsyncUtils.asyncFx(window::close).get(10, TimeUnit.SECONDS);
    }

    @Test
    void theDeadlockBadgeOfTheSelectedOverviewEntryIsReadableInBothThemes(FxRobot robot) throws Exception {
        robot.interact(() -> window.model().apply(List.of(frame(deadlockedPair(A, B)))));
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> badge(robot) != null && badge(robot).isVisible()));

        assertThat(onFx(() -> contrast(badge(robot)))).as("light theme").isGreaterThanOrEqualTo(READABLE);

        robot.clickOn("#theme-switch");
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(onFx(() -> contrast(badge(robot)))).as("dark theme").isGreaterThanOrEqualTo(READABLE);
    }

    /** The "deadlock" badge beside the Overview entry, which is the selected one. */
    private static Label badge(FxRobot robot) {
        return robot.lookup("#nav .list-cell:selected .nav-alarm").tryQuery().map(node -> (Label) node).orElse(null);
    }

    /** The contrast ratio of the label's text on its own background, as WCAG defines it. */
    private static double contrast(Label label) {
        label.applyCss();
        Color text = (Color) label.getTextFill();
        Color background = (Color) label.getBackground().getFills().get(0).getFill();
        double lighter = Math.max(luminance(text), luminance(background));
        double darker = Math.min(luminance(text), luminance(background));
        return (lighter + 0.05) / (darker + 0.05);
    }

    private static double luminance(Color color) {
        return 0.2126 * linear(color.getRed()) + 0.7152 * linear(color.getGreen()) + 0.0722 * linear(color.getBlue());
    }

    private static double linear(double channel) {
        return channel <= 0.03928 ? channel / 12.92 : Math.pow((channel + 0.055) / 1.055, 2.4);
    }

    private static <T> T onFx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
    }
}
