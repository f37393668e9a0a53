package dev.baton.cli;

import dev.baton.support.BatonCli;
import dev.baton.support.TestSidecar;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A real sidecar in a temporary BATON_HOME and the real {@code baton} command pointed at it, run from {@code work}. */
abstract class CliFixture {

    @TempDir Path home;
    @TempDir Path work;
    TestSidecar sidecar;
    BatonCli baton;

    @BeforeEach
    void startSidecar() {
        sidecar = TestSidecar.onHome(home).start();
        baton = new BatonCli(home, work);
    }

    @AfterEach
    void stopSidecar() {
        sidecar.close();
    }
}
