package dev.baton.dashboard.ui;

import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.DashboardWindow;
import dev.baton.dashboard.connection.SidecarLocator;
import dev.baton.dashboard.view.Page;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.stage.Stage;
import org.testfx.util.WaitForAsyncUtils;

/** The real window, shown at 1280×800 on a TestFX stage, against a real sidecar of its own on port 0. */
final class LiveWindow implements AutoCloseable {

    private final LiveSidecar sidecar;
    private final DashboardWindow window;

    private LiveWindow(LiveSidecar sidecar, DashboardWindow window) {
        this.sidecar = sidecar;
        this.window = window;
    }

    /** Starts a sidecar on the home {@code temp/home} and shows the window on {@code page}. */
    static LiveWindow show(Stage stage, Path temp, Clock clock, boolean dark, Page page) throws Exception {
        LiveSidecar sidecar = new LiveSidecar(temp.resolve("home")).start();
        DashboardWindow window = new DashboardWindow(SidecarLocator.home(sidecar.home()), clock, dark);
        window.show(stage, 1280, 800, page);
        return new LiveWindow(sidecar, window);
    }

    LiveSidecar sidecar() {
        return sidecar;
    }

    DashboardWindow window() {
        return window;
    }

    /** Returns once the window has the sidecar's first snapshot. */
    void awaitFirstSnapshot() {
        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() -> window.model().loadedProperty().get()));
    }

    /** Closes the window on the FX thread, then stops the sidecar. */
    @Override
    public void close() throws Exception {
        WaitForAsyncUtils.asyncFx(window::close).get(10, TimeUnit.SECONDS);
        sidecar.close();
    }

    static <T> T onFx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
    }
}
