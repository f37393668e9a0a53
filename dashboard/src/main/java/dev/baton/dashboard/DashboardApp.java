package dev.baton.dashboard;

import java.io.IOException;
import java.time.Clock;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.stage.Stage;
import javafx.util.Duration;

/** The JavaFX application: one window on the sidecar, or one screenshot of it with {@code --screenshot}. */
public final class DashboardApp extends Application {

    /** How long --screenshot waits for the sidecar's first snapshot before giving up. */
    private static final java.time.Duration SCREENSHOT_DEADLINE = java.time.Duration.ofSeconds(20);

    private DashboardWindow window;

    @Override
    public void start(Stage stage) {
        DashboardOptions options = DashboardOptions.parse(getParameters().getRaw().toArray(String[]::new));
        window = new DashboardWindow(options.locator(System.getenv()), Clock.systemDefaultZone(), options.dark());
        window.show(stage, options.width(), options.height(), options.page());
        if (options.screenshot() != null) {
            screenshotThenExit(options);
        }
    }

    private void screenshotThenExit(DashboardOptions options) {
        long deadline = System.nanoTime() + SCREENSHOT_DEADLINE.toNanos();
        Timeline poll = new Timeline();
        poll.getKeyFrames().add(new KeyFrame(Duration.millis(100), e -> {
            boolean ready = window.model().loadedProperty().get();
            if (!ready && System.nanoTime() < deadline) {
                return;
            }
            poll.stop();
            if (!ready) {
                System.err.println("baton dashboard: no snapshot from the sidecar within "
                        + SCREENSHOT_DEADLINE.toSeconds() + " s (" + window.model().connectionProperty().get().detail()
                        + "); the screenshot shows the window as it is");
            }
            // Let the first batch, the inbox fetch and the layout settle before taking the picture.
            Timeline settle = new Timeline(new KeyFrame(Duration.millis(800), done -> {
                try {
                    Screenshot.write(window.scene(), options.screenshot());
                    System.out.println(options.screenshot().toAbsolutePath());
                } catch (IOException failure) {
                    System.err.println("baton dashboard: cannot write " + options.screenshot() + ": " + failure.getMessage());
                }
                Platform.exit();
            }));
            settle.play();
        }));
        poll.setCycleCount(Timeline.INDEFINITE);
        poll.play();
    }

    @Override
    public void stop() {
        if (window != null) {
            window.close();
        }
    }
}
