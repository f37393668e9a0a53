package dev.baton.hook;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where most hook tests start: a {@link HookHarness} whose sidecar runs with the production adapters in a fresh
 * temporary directory, started before each test and stopped after it.
 */
abstract class HookFixture {

    @TempDir
    Path dir;

    HookHarness harness;

    @BeforeEach
    void startSidecar() throws Exception {
        harness = HookHarness.start(dir);
    }

    @AfterEach
    void stopSidecar() {
        harness.close();
    }
}
