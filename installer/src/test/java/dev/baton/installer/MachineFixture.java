package dev.baton.installer;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Where most installer tests start: a fresh {@link TestMachine} in a temporary directory for each test. */
abstract class MachineFixture {

    @TempDir
    Path temp;

    TestMachine machine;

    @BeforeEach
    void createMachine() throws IOException {
        machine = new TestMachine(temp);
    }
}
