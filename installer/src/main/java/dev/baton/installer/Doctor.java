package dev.baton.installer;

import dev.baton.home.BatonHome;
import dev.baton.home.StateCheck;
import dev.baton.agent.AgentWirings;
import dev.baton.installer.agents.AgentChecks;
import dev.baton.installer.agents.ShellWrapperChecks;
import dev.baton.installer.apparmor.UsernsRestriction;
import dev.baton.installer.doctor.Check.Status;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.doctor.HealthProbe;
import dev.baton.installer.doctor.TeamProbe;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.SidecarEndpoint;
import dev.baton.installer.service.UserService;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** {@code baton doctor}: checks every piece an agent needs to reach Baton and says how to fix what is wrong. */
public final class Doctor {

    private final InstallLayout layout;
    private final Path project;
    private final HealthProbe probe;
    private final TeamProbe teamProbe;
    private final Map<String, String> environment;
    private final Path systemRoot;

    /** A doctor whose hook runs see only HOME, PATH and BATON_HOME of the layout. */
    public Doctor(InstallLayout layout, Path project, Duration httpTimeout) {
        this(layout, project, httpTimeout, Map.of("HOME", layout.home().toString(),
                "PATH", String.join(":", layout.searchPath().stream().map(Path::toString).toList()),
                "BATON_HOME", layout.batonHome().toString()));
    }

    /** @param environment what the agents' hook commands run with, as the agents would pass it on */
    public Doctor(InstallLayout layout, Path project, Duration httpTimeout, Map<String, String> environment) {
        this(layout, project, httpTimeout, environment, Path.of("/"));
    }

    /** @param systemRoot where the kernel's files are read from ({@code /}; a directory of stand-ins in tests) */
    public Doctor(InstallLayout layout, Path project, Duration httpTimeout, Map<String, String> environment,
            Path systemRoot) {
        this.systemRoot = systemRoot;
        this.layout = layout;
        this.project = project.toAbsolutePath().normalize();
        this.probe = new HealthProbe(httpTimeout);
        this.teamProbe = new TeamProbe(httpTimeout);
        this.environment = Map.copyOf(environment);
    }

    public List<Check> run() {
        List<Check> checks = new ArrayList<>();
        checks.add(batonHome());
        checks.add(token());
        checks.add(state());
        checks.add(executable("hook script", layout.hookScript()));
        checks.add(executable("launcher", layout.hookLauncher()));
        checks.add(layout.binDirOnPath()
                ? Check.ok("PATH", layout.binDir() + " is on PATH")
                : new Check(Status.SKIPPED, "PATH", layout.binDir() + " is not on PATH; the hooks do not need it, to run"
                        + " `baton` yourself: export PATH=\"" + layout.binDir() + ":$PATH\"", ""));
        // The wrapper's probe asks no sidecar; each agent's shell line then says the mode it found.
        Check shellGuard = ShellWrapperChecks.kernel(layout, environment, UsernsRestriction.read(systemRoot));
        // The agents' hooks run first: they start a sidecar that is not running, as they would for the agent.
        new AgentChecks(layout, project, environment, ShellWrapperChecks.Mode.of(shellGuard)).addTo(checks, AgentWirings.ALL);
        checks.add(6, sidecar());
        checks.add(7, serviceMode());
        checks.add(8, shellGuard);
        team().ifPresent(checks::add);
        return checks;
    }

    /** Prints one line per check (and a fix line under each problem); returns 0 when all is well, else 1. */
    public static int report(List<Check> checks, PrintWriter out) {
        long problems = checks.stream().filter(check -> check.status() == Status.PROBLEM).count();
        for (Check check : checks) {
            out.printf("%s %-16s %s%n", check.status().symbol, check.subject(), check.detail());
            if (check.status() == Status.PROBLEM) {
                out.println("    fix: " + check.fix());
            }
        }
        out.println(problems == 0 ? "All checks passed." : problems + (problems == 1 ? " problem" : " problems") + " found.");
        out.flush();
        return problems == 0 ? 0 : 1;
    }

    private Check batonHome() {
        Path home = layout.batonHome();
        if (!Files.isDirectory(home)) {
            return Check.problem("BATON_HOME", home + " does not exist",
                    "run `baton install` or start the sidecar once with `baton serve`; both create it");
        }
        try {
            String shown = PosixFilePermissions.toString(Files.getPosixFilePermissions(home));
            layout.sidecarHome().requirePrivate();
            return Check.ok("BATON_HOME", home + " (" + shown + ")");
        } catch (BatonHome.NotPrivateException e) {
            return Check.problem("BATON_HOME", e.problem(), e.fix());
        } catch (IOException e) {
            return Check.problem("BATON_HOME", home + " cannot be checked: " + e.getMessage(), "check that it is a directory of yours");
        }
    }

    /**
     * The sidecar's database and its log, checked as a start checks them (one owner: {@link StateCheck}), unless a
     * sidecar is running: it checked them when it started, and its log is in use.
     */
    private Check state() {
        BatonHome home = layout.sidecarHome();
        if (!Files.isDirectory(home.dir())) {
            return new Check(Status.SKIPPED, "state", "no BATON_HOME yet", "");
        }
        try {
            OptionalLong pid = home.readPid();
            if (pid.isPresent() && ProcessHandle.of(pid.getAsLong()).map(ProcessHandle::isAlive).orElse(false)) {
                return Check.ok("state", home.database() + " (checked by the running sidecar, pid " + pid.getAsLong()
                        + ", when it started)");
            }
            List<StateCheck.Problem> problems = StateCheck.inspect(home);
            if (!problems.isEmpty()) {
                return Check.problem("state", problems.get(0).what(), problems.get(0).fix());
            }
            return Check.ok("state", Files.exists(home.database()) ? home.database() + " is whole"
                    : "no database yet (the sidecar makes one when it first starts)");
        } catch (IOException e) {
            return Check.problem("state", "cannot check " + home.database() + ": " + e.getMessage(),
                    "check that " + home.dir() + " and its files belong to you");
        }
    }

    private Check token() {
        Path tokenFile = layout.tokenFile();
        try {
            Optional<String> token = layout.sidecarHome().readToken();
            if (token.isEmpty()) {
                return Check.problem("token", tokenFile + (Files.exists(tokenFile) ? " is empty" : " does not exist"),
                        "run `baton install` or start the sidecar once; both create it");
            }
            return Check.ok("token", tokenFile + " is readable");
        } catch (IOException e) {
            return Check.problem("token", "cannot read " + tokenFile + ": " + e.getMessage(),
                    "chmod 600 " + tokenFile + " (it must belong to you)");
        }
    }

    /** Which mode starts the sidecar: the user's service manager (with its state) or the hooks, on demand. */
    private Check serviceMode() {
        UserService.Report report = new UserService(layout, environment, UserService.Platform.current()).status();
        return switch (report.mode()) {
            case ON_DEMAND, UNREACHABLE -> Check.ok("service", report.summary());
            case SERVICE -> report.up() ? Check.ok("service", report.summary())
                    : Check.problem("service", report.summary(), "run `baton service install` again, or"
                            + " `baton service uninstall` to go back to starting it on demand");
        };
    }

    private Check sidecar() {
        String fix = "start it with `baton serve` (hooks also start it on demand); if it does not stay up, read "
                + layout.batonHome().resolve("sidecar.log");
        Optional<SidecarEndpoint> endpoint;
        try {
            endpoint = SidecarEndpoint.running(layout);
        } catch (InstallerException e) {
            return Check.problem("sidecar", e.getMessage(), fix);
        }
        if (endpoint.isEmpty()) {
            return Check.problem("sidecar", "not running (no " + layout.endpointFile() + ")", fix);
        }
        HealthProbe.Result result = probe.probe(endpoint.get());
        return result.healthy() ? Check.ok("sidecar", result.description()) : Check.problem("sidecar", result.description(), fix);
    }

    /** Team mode, when this environment asks for it or the sidecar runs in a team. */
    private Optional<Check> team() {
        Optional<SidecarEndpoint> endpoint;
        Optional<String> token;
        try {
            endpoint = SidecarEndpoint.running(layout);
            token = layout.sidecarHome().readToken();
        } catch (InstallerException | java.io.IOException e) {
            return Optional.empty(); // the sidecar and token checks say what is wrong
        }
        String url = environment.get("BATON_TEAM_URL");
        return teamProbe.check(url, endpoint, token);
    }

    private static Check executable(String subject, Path path) {
        if (!Files.exists(path)) {
            return Check.problem(subject, path + " is missing", "run `baton install`");
        }
        if (!Files.isExecutable(path)) {
            return Check.problem(subject, path + " is not executable", "chmod 755 " + path);
        }
        return Check.ok(subject, path.toString());
    }
}
