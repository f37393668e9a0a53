package dev.baton.cli;

import dev.baton.installer.layout.DashboardJar;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** {@code baton dashboard [--screenshot FILE.png] …}: starts the JavaFX dashboard from its own jar. */
@Command(name = "dashboard", description = "Open the supervisor's dashboard (options: --url, --token, --screenshot FILE.png, --theme).")
final class DashboardCommand implements Callable<Integer> {

    @Unmatched List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws InterruptedException {
        Path jar = DashboardJar.find(System.getenv(), runningJar()).orElseThrow(() -> new CliException(
                "the dashboard's jar (" + DashboardJar.FILE_NAME + ") is not installed next to this program; build it"
                        + " with `mvn -q package -DskipTests` and run `baton install` again, or set BATON_DASHBOARD_JAR"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()));
        command.addAll(args);
        try {
            return new ProcessBuilder(command).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new CliException("cannot start the dashboard: " + e.getMessage());
        }
    }

    private static Path runningJar() {
        try {
            Path location = Path.of(DashboardCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return location.toString().endsWith(".jar") ? location : null;
        } catch (URISyntaxException | SecurityException e) {
            return null;
        }
    }
}
