package dev.baton.installer;

import dev.baton.installer.layout.InstallLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code baton doctor}: checks the installation and the sidecar, one line per check, with fixes. */
@Command(name = "doctor", description = "Check that Baton is installed and reachable; exit 1 if anything needs fixing.")
public final class DoctorCommand implements Callable<Integer> {

    public static final Duration HTTP_TIMEOUT = Duration.ofSeconds(2);

    @Spec
    public CommandSpec spec;

    @Option(names = "--project", paramLabel = "DIR",
            description = "Project whose project and local config to check. Default: the current directory.")
    Path project;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
    public boolean help;

    private final Map<String, String> environment;

    public DoctorCommand() {
        this(System.getenv());
    }

    /** @param environment the variables paths are derived from (see {@link InstallLayout}) */
    public DoctorCommand(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public Integer call() {
        Path directory = project != null ? project : Path.of(System.getProperty("user.dir"));
        if (!Files.isDirectory(directory)) {
            throw new ParameterException(spec.commandLine(), "--project " + directory + " is not a directory.");
        }
        Doctor doctor = new Doctor(InstallLayout.fromEnvironment(environment), directory, HTTP_TIMEOUT, environment);
        return Doctor.report(doctor.run(), spec.commandLine().getOut());
    }
}
