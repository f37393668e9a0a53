package dev.baton.installer.service;

import dev.baton.home.BatonHome;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.SidecarEndpoint;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The sidecar as a service of the user's service manager, so no agent's edit waits for a JVM to start: systemd
 * user units with socket activation on Linux ({@link SystemdUnits}), a launchd agent on macOS ({@link LaunchdAgent}).
 * Installs, removes and reports exactly Baton's files, and tells the hook through {@code service-socket} in
 * BATON_HOME that a connection to the socket starts the sidecar.
 */
public final class UserService {

    /** The service manager this machine has for the user. */
    public enum Platform {
        SYSTEMD, LAUNCHD;

        public static Platform current() {
            return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("mac") ? LAUNCHD : SYSTEMD;
        }
    }

    private final InstallLayout layout;
    private final Map<String, String> environment;
    private final Platform platform;

    public UserService(InstallLayout layout, Map<String, String> environment, Platform platform) {
        this.layout = layout;
        this.environment = Map.copyOf(environment);
        this.platform = platform;
    }

    public Path systemdDir() {
        String config = environment.get("XDG_CONFIG_HOME");
        Path base = config != null && !config.isBlank() ? Path.of(config) : layout.home().resolve(".config");
        return base.resolve("systemd/user");
    }

    public Path socketUnit() {
        return systemdDir().resolve(SystemdUnits.SOCKET);
    }

    public Path serviceUnit() {
        return systemdDir().resolve(SystemdUnits.SERVICE);
    }

    public Path launchdPlist() {
        return layout.home().resolve("Library/LaunchAgents").resolve(LaunchdAgent.FILE_NAME);
    }

    public SystemdUnits units() throws InstallerException {
        return new SystemdUnits(layout.hookLauncher(), layout.batonHome(), SidecarEndpoint.configured(layout).port(), path(),
                home().serviceEnvironmentFile());
    }

    public LaunchdAgent agent() throws InstallerException {
        return new LaunchdAgent(layout.hookLauncher(), layout.batonHome(), SidecarEndpoint.configured(layout).port(), path(),
                settings());
    }

    /**
     * The settings of the installing shell the service carries: team mode's ({@code BATON_TEAM_*}) and the file of
     * database passwords the PostgreSQL driver reads ({@code PGPASSFILE}). A service does not see the shell's
     * environment, and without them a service-started sidecar would leave the team.
     */
    public SortedMap<String, String> settings() {
        SortedMap<String, String> settings = new TreeMap<>();
        environment.forEach((name, value) -> {
            if ((name.startsWith(TEAM_SETTINGS) || name.equals(PASSWORD_FILE)) && value != null && !value.isBlank()) {
                settings.put(name, value);
            }
        });
        return settings;
    }

    private static final String TEAM_SETTINGS = "BATON_TEAM_";
    private static final String PASSWORD_FILE = "PGPASSFILE";

    private String path() {
        String path = environment.get("PATH");
        return path == null || path.isBlank() ? "/usr/local/bin:/usr/bin:/bin" : path;
    }

    /** Writes the service files and starts the service where the user's manager is reachable; returns the exit code. */
    public int install(PrintWriter out, boolean dryRun) throws InstallerException {
        Path launcher = layout.hookLauncher();
        if (!dryRun && !Files.isExecutable(launcher)) {
            throw new InstallerException(launcher + " is missing; the service runs it. Run `baton install` first,"
                    + " or `baton install --service` to do both.");
        }
        try {
            return platform == Platform.LAUNCHD ? installLaunchd(out, dryRun) : installSystemd(out, dryRun);
        } catch (IOException e) {
            throw new InstallerException("could not write the service files: " + e.getMessage(), e);
        }
    }

    private int installSystemd(PrintWriter out, boolean dryRun) throws IOException, InstallerException {
        SystemdUnits units = units();
        SortedMap<String, String> settings = checkedSettings();
        writeOwn(socketUnit(), units.socket(), out, dryRun);
        writeOwn(serviceUnit(), units.service(), out, dryRun);
        writeSettings(settings, out, dryRun);
        if (dryRun) {
            out.println("would run: systemctl --user daemon-reload; systemctl --user enable --now " + SystemdUnits.SOCKET
                    + " " + SystemdUnits.SERVICE);
            return 0;
        }
        // Written whether or not the socket can be started now: the hook connects there first and, finding nothing
        // listening, starts the sidecar itself; without it, a socket enabled later would hold the port against that.
        home().writeServiceSocket(units.port());
        Optional<String> unreachable = systemdUnreachable();
        if (unreachable.isPresent()) {
            out.println("The user's systemd is not reachable here (" + unreachable.get() + "), so nothing was enabled;"
                    + " the hooks keep starting the sidecar on demand. Where a user manager runs, start the socket with"
                    + " `systemctl --user daemon-reload && systemctl --user enable --now " + SystemdUnits.SOCKET + " "
                    + SystemdUnits.SERVICE + "`.");
            return 0;
        }
        ServiceManagerCall reload = systemctl("daemon-reload");
        ServiceManagerCall enable = reload.succeeded()
                ? systemctl("enable", "--now", SystemdUnits.SOCKET, SystemdUnits.SERVICE) : reload;
        if (!enable.succeeded()) {
            out.println("systemctl --user could not start " + SystemdUnits.SOCKET + ": " + enable.output().strip());
            out.println("If a sidecar already serves port " + units.port() + ", stop it (`baton stop`) and run"
                    + " `baton service install` again; `baton service status` shows the units' state.");
            return 1;
        }
        out.println(SystemdUnits.SOCKET + " listens on 127.0.0.1:" + units.port() + " and " + SystemdUnits.SERVICE
                + " serves it, from now on and at every login; when the sidecar is not running, the next hook call"
                + " starts it through the socket.");
        return 0;
    }

    /** {@link #settings()}, refused whole before anything is written when one cannot be carried. */
    private SortedMap<String, String> checkedSettings() throws InstallerException {
        SortedMap<String, String> settings = settings();
        for (var setting : settings.entrySet()) {
            if (!BatonHome.carriesServiceSetting(setting.getKey(), setting.getValue())) {
                throw new InstallerException(setting.getKey() + " cannot be carried to the service: a value must be"
                        + " printable ASCII on one line (percent-encode other characters of a URL); nothing was written");
            }
        }
        return settings;
    }

    /** The team's settings of this shell, for the service; none removes an older file. */
    private void writeSettings(SortedMap<String, String> settings, PrintWriter out, boolean dryRun) throws IOException {
        Path file = home().serviceEnvironmentFile();
        if (settings.isEmpty()) {
            if (!dryRun) {
                home().clearServiceEnvironment();
            }
            return;
        }
        if (dryRun) {
            out.println("would write " + file + " (" + String.join(", ", settings.keySet()) + ", readable by you alone)");
            return;
        }
        home().writeServiceEnvironment(settings);
        out.println("wrote " + file + ": the service runs with this shell's " + String.join(", ", settings.keySet())
                + " (readable by you alone; run `baton service install` again after changing them)");
    }

    private int installLaunchd(PrintWriter out, boolean dryRun) throws IOException, InstallerException {
        boolean carries = !checkedSettings().isEmpty();
        writeOwn(launchdPlist(), agent().plist(), out, dryRun);
        if (!dryRun && carries) {
            Files.setPosixFilePermissions(launchdPlist(), java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        }
        if (dryRun) {
            out.println("would run: launchctl bootstrap " + domain() + " " + launchdPlist());
            return 0;
        }
        launchctl("bootout", domain() + "/" + LaunchdAgent.LABEL); // an older copy, if loaded; fails harmlessly if not
        ServiceManagerCall bootstrap = launchctl("bootstrap", domain(), launchdPlist().toString());
        if (!bootstrap.succeeded()) {
            out.println("launchctl could not load " + launchdPlist() + ": " + bootstrap.output().strip()
                    + "; the hooks keep starting the sidecar on demand.");
            return 1;
        }
        out.println("launchd runs the sidecar from now on and at every login (" + LaunchdAgent.LABEL + ").");
        return 0;
    }

    /** Stops the service and removes exactly the files Baton wrote; returns the exit code. */
    public int uninstall(PrintWriter out) throws InstallerException {
        try {
            if (platform == Platform.LAUNCHD) {
                if (Files.exists(launchdPlist())) {
                    launchctl("bootout", domain() + "/" + LaunchdAgent.LABEL);
                }
                removeOwn(launchdPlist(), out);
            } else {
                boolean reachable = systemdUnreachable().isEmpty();
                if (reachable && (Files.exists(socketUnit()) || Files.exists(serviceUnit()))) {
                    systemctl("disable", "--now", SystemdUnits.SOCKET, SystemdUnits.SERVICE);
                }
                removeOwn(socketUnit(), out);
                removeOwn(serviceUnit(), out);
                if (reachable) {
                    systemctl("daemon-reload");
                }
            }
            home().clearServiceSocket();
            home().clearServiceEnvironment();
        } catch (IOException e) {
            throw new InstallerException("could not remove the service files: " + e.getMessage(), e);
        }
        out.println("The hooks start the sidecar on demand again.");
        return 0;
    }

    /** What runs the sidecar here: lines for {@code baton service status}, and whether the service is up. */
    public Report status() {
        List<String> lines = new ArrayList<>();
        if (platform == Platform.LAUNCHD) {
            if (!Files.exists(launchdPlist())) {
                return Report.onDemand("on demand: no launchd agent (" + launchdPlist() + " does not exist); the hooks"
                        + " start the sidecar when it is not running. `baton service install` keeps it running.");
            }
            ServiceManagerCall print = launchctl("print", domain() + "/" + LaunchdAgent.LABEL);
            String state = print.succeeded() ? launchdState(print.output()) : "not loaded (" + print.firstLine() + ")";
            lines.add("launchd agent " + LaunchdAgent.LABEL + " (" + launchdPlist() + "): " + state);
            return new Report(Mode.SERVICE, print.succeeded(), lines);
        }
        if (!Files.exists(socketUnit())) {
            return Report.onDemand("on demand: no systemd user units (" + socketUnit() + " does not exist); the hooks"
                    + " start the sidecar when it is not running. `baton service install` keeps it ready.");
        }
        Optional<String> unreachable = systemdUnreachable();
        if (unreachable.isPresent()) {
            lines.add("systemd socket activation is installed (" + socketUnit() + ", " + SystemdUnits.SERVICE + ") but the"
                    + " user's systemd is not reachable here (" + unreachable.get() + "); the hooks start the sidecar on"
                    + " demand.");
            return new Report(Mode.UNREACHABLE, false, lines);
        }
        String socketActive = systemctl("is-active", SystemdUnits.SOCKET).firstLine();
        String socketEnabled = systemctl("is-enabled", SystemdUnits.SOCKET).firstLine();
        String serviceActive = systemctl("is-active", SystemdUnits.SERVICE).firstLine();
        String serviceEnabled = systemctl("is-enabled", SystemdUnits.SERVICE).firstLine();
        lines.add("systemd socket activation (" + systemdDir() + "):");
        lines.add("  " + SystemdUnits.SOCKET + ": " + socketActive + ", " + socketEnabled);
        lines.add("  " + SystemdUnits.SERVICE + ": " + serviceActive + ", " + serviceEnabled
                + (serviceActive.equals("inactive") ? " (the next connection to the socket starts it)" : ""));
        return new Report(Mode.SERVICE, socketActive.equals("active"), lines);
    }

    /** How the sidecar gets started. */
    public enum Mode { SERVICE, UNREACHABLE, ON_DEMAND }

    public record Report(Mode mode, boolean up, List<String> lines) {
        static Report onDemand(String line) {
            return new Report(Mode.ON_DEMAND, false, List.of(line));
        }

        public String summary() {
            return String.join(" ", lines.stream().map(String::strip).toList());
        }
    }

    /** Empty when {@code systemctl --user} can talk to the user's manager, else what it said. */
    public Optional<String> systemdUnreachable() {
        ServiceManagerCall call = systemctl("show-environment");
        return call.succeeded() ? Optional.empty() : Optional.of("systemctl --user show-environment: " + call.firstLine());
    }

    private static ServiceManagerCall systemctl(String... args) {
        List<String> command = new ArrayList<>(List.of("systemctl", "--user"));
        command.addAll(List.of(args));
        return ServiceManagerCall.run(command);
    }

    private static ServiceManagerCall launchctl(String... args) {
        List<String> command = new ArrayList<>(List.of("launchctl"));
        command.addAll(List.of(args));
        return ServiceManagerCall.run(command);
    }

    private static String domain() {
        return "gui/" + new com.sun.security.auth.module.UnixSystem().getUid();
    }

    private static String launchdState(String print) {
        for (String line : print.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("state = ")) {
                return trimmed.substring("state = ".length());
            }
        }
        return "loaded";
    }

    private BatonHome home() {
        return layout.sidecarHome();
    }

    /** Writes one of Baton's service files; a file of that name that Baton did not write is left alone (an error). */
    private static void writeOwn(Path file, String content, PrintWriter out, boolean dryRun) throws IOException {
        if (Files.exists(file) && !isOwn(file)) {
            throw new IOException(file + " exists and was not written by Baton; move it away and run the command again");
        }
        if (dryRun) {
            out.println("would write " + file);
            return;
        }
        Files.createDirectories(file.getParent());
        Path temp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
        Files.writeString(temp, content, StandardCharsets.UTF_8);
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        out.println("wrote " + file);
    }

    private static void removeOwn(Path file, PrintWriter out) throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        if (!isOwn(file)) {
            out.println("left " + file + " alone: Baton did not write it");
            return;
        }
        Files.delete(file);
        out.println("removed " + file);
    }

    private static boolean isOwn(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8).contains(SystemdUnits.MARK.substring(2));
    }
}
