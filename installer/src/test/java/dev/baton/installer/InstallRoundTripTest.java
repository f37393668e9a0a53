package dev.baton.installer;

import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.installer.layout.Scope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Install for every agent at both scopes, then uninstall with --purge: the machine is as it was, to the byte. */
class InstallRoundTripTest extends MachineFixture {

    @Test
    void uninstallWithPurgeGivesEveryFileAndDirectoryBackAsItWasExceptTheStateBatonKept() throws Exception {
        write(machine.userSettings(), "{\n  \"model\": \"opus\"\n}\n");
        write(machine.home.resolve(".claude.json"), "{\"numStartups\": 12, \"projects\": {}}");
        write(machine.home.resolve(".copilot/config.json"), "{\n  \"banner\": \"never\"\n}\n");
        write(machine.home.resolve(".codex/config.toml"), "model = \"gpt-5.5\"  # mine\n");
        write(machine.home.resolve(".gemini/settings.json"), "{\n  // pinned\n  \"model\": {\"name\": \"gemini-2.5-pro\"}\n}\n");
        write(machine.project.resolve("README.md"), "# shop\n");
        Map<Path, String> before = tree();

        machine.install(Scope.USER);
        machine.install(Scope.PROJECT);
        machine.uninstaller().uninstall(machine.target(Scope.PROJECT), false, false);
        machine.uninstaller().uninstall(machine.target(Scope.USER), true, false);

        Map<Path, String> after = tree();
        Path state = machine.root.relativize(machine.layout().batonHome());
        after.keySet().removeIf(path -> path.startsWith(state));
        after.keySet().removeIf(path -> state.startsWith(path)); // the directories that lead to it
        before.keySet().removeIf(path -> state.startsWith(path));
        assertThat(after).isEqualTo(before);
    }

    /** Every directory and file under the machine's root, files with their content. */
    private Map<Path, String> tree() throws IOException {
        Map<Path, String> entries = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(machine.root)) {
            for (Path path : walk.toList()) {
                entries.put(machine.root.relativize(path), Files.isDirectory(path) ? "(directory)"
                        : new String(Files.readAllBytes(path), StandardCharsets.UTF_8));
            }
        }
        return entries;
    }
}
