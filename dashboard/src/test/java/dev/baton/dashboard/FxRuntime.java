package dev.baton.dashboard;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;

/** Starts the JavaFX runtime once per test JVM (headless Monocle, as configured in the pom). */
public final class FxRuntime {

    private static boolean started;

    private FxRuntime() {
    }

    public static synchronized void start() throws InterruptedException {
        if (started) {
            return;
        }
        CountDownLatch ready = new CountDownLatch(1);
        try {
            Platform.startup(ready::countDown);
        } catch (IllegalStateException alreadyRunning) {
            ready.countDown();
        }
        Platform.setImplicitExit(false);
        if (!ready.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("JavaFX did not start within 30 s");
        }
        started = true;
    }
}
