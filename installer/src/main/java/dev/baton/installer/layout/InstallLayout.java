package dev.baton.installer.layout;

import dev.baton.home.BatonHome;
import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every path Baton installs its own files to or reads them from, derived from one environment map so tests can point
 * the whole installation at a temporary home. Each agent's wiring finds the agent's configuration from the same map
 * ({@link #directoryFrom}).
 *
 * <p>Variables read: {@code HOME}, {@code XDG_DATA_HOME}, {@code XDG_STATE_HOME}, {@code BATON_HOME},
 * {@code BATON_PORT}, {@code JAVA_HOME}, {@code PATH}.
 */
public record InstallLayout(
        Path home,
        Path dataDir,
        Path binDir,
        Path batonHome,
        List<Path> searchPath,
        Optional<Path> javaHome,
        Optional<String> portOverride,
        Map<String, String> environment) {

    public static InstallLayout fromEnvironment(Map<String, String> env) {
        Path home = Path.of(value(env, "HOME").orElse(System.getProperty("user.home"))).toAbsolutePath();
        Path dataHome = value(env, "XDG_DATA_HOME").map(Path::of).orElse(home.resolve(".local/share"));
        Path batonHome = BatonHome.fromEnvironment(env).dir();
        List<Path> searchPath = value(env, "PATH")
                .map(path -> Arrays.stream(path.split(File.pathSeparator))
                        .filter(entry -> !entry.isBlank())
                        // bash expands a literal "~/" in PATH entries, so such an entry counts too.
                        .map(entry -> entry.startsWith("~/") ? home.resolve(entry.substring(2)) : Path.of(entry))
                        .toList())
                .orElse(List.of());
        return new InstallLayout(
                home,
                dataHome.resolve("baton"),
                home.resolve(".local/bin"),
                batonHome,
                searchPath,
                value(env, "JAVA_HOME").map(Path::of),
                value(env, "BATON_PORT"),
                Map.copyOf(env));
    }

    /** The directory an environment variable names, when it is set and not blank. */
    public Optional<Path> directoryFrom(String variable) {
        return value(environment, variable).map(Path::of);
    }

    private static Optional<String> value(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).filter(text -> !text.isBlank());
    }

    public Path hookScript() {
        return dataDir.resolve("hooks/baton-hook");
    }

    /** Baton's MCP server over stdio, beside the hook script: what every agent's MCP entry starts. */
    public Path mcpScript() {
        return hookScript().resolveSibling(HookScript.MCP);
    }

    /** The link that runs the hook script as the shell wrapper (Claude Code's shell prefix names it). */
    public Path shellWrapper() {
        return hookScript().resolveSibling(HookScript.SHELL_WRAPPER);
    }

    /** The launcher beside the hook script, which the script runs to start a sidecar that is not running. */
    public Path hookLauncher() {
        return hookScript().resolveSibling("baton");
    }

    public Path installedDashboardJar() {
        return dataDir.resolve("lib/" + DashboardJar.FILE_NAME);
    }

    public Path installedJar() {
        return dataDir.resolve("lib/baton.jar");
    }

    /** The Java runtime a release brought, copied here so the installed launcher needs no Java of the machine's. */
    public Path installedRuntime() {
        return dataDir.resolve("runtime");
    }

    public Path launcher() {
        return binDir.resolve("baton");
    }

    public Path hookLink() {
        return binDir.resolve("baton-hook");
    }

    /** BATON_HOME and its files; their one reader and writer. */
    public BatonHome sidecarHome() {
        return new BatonHome(batonHome);
    }

    public Path endpointFile() {
        return sidecarHome().endpointFile();
    }

    public Path tokenFile() {
        return sidecarHome().tokenFile();
    }

    public boolean binDirOnPath() {
        return searchPath.stream().anyMatch(entry -> entry.toAbsolutePath().normalize().equals(binDir.normalize()));
    }
}
