package dev.baton.installer.layout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the dashboard's jar beside the program's jar: the dashboard is a JavaFX app in a jar of its
 * own, so the CLI's jar stays free of JavaFX. Installed, both sit in {@code lib/}; in a checkout,
 * the dashboard's build output sits beside the sidecar's.
 */
public final class DashboardJar {

    public static final String FILE_NAME = "baton-dashboard.jar";

    private DashboardJar() {
    }

    /** {@code BATON_DASHBOARD_JAR}, else next to {@code programJar}, else the checkout's build output. */
    public static Optional<Path> find(Map<String, String> env, Path programJar) {
        String explicit = env.get("BATON_DASHBOARD_JAR");
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(Path.of(explicit)).filter(Files::isRegularFile);
        }
        if (programJar == null || programJar.getParent() == null) {
            return Optional.empty();
        }
        Path dir = programJar.toAbsolutePath().getParent();
        List<Path> candidates = List.of(
                dir.resolve(FILE_NAME),
                dir.resolveSibling("..").resolve("dashboard/target").resolve(FILE_NAME).normalize());
        return candidates.stream().filter(Files::isRegularFile).findFirst();
    }
}
