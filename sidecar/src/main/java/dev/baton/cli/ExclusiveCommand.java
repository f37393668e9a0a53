package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.session.ProcessIdentity;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code baton exclusive NAME -- CMD ARGS…}: runs CMD while holding the named lock and releases it
 * however CMD ends. The lock is held by this process, so if it is killed the lock frees itself; CMD runs tied to
 * this process ({@link TiedCommand}), so it ends too instead of running on while the lock passes to someone else.
 */
@Command(name = "exclusive", description = "Run CMD while holding the named lock NAME; exit with CMD's status.")
final class ExclusiveCommand extends SidecarCommands implements Callable<Integer> {

    @Spec CommandSpec spec;
    @Parameters(index = "0", paramLabel = "NAME") String name;
    @Parameters(index = "1..*", paramLabel = "CMD", arity = "1..*") List<String> command;
    @Option(names = "--wait", paramLabel = "SECONDS", description = "Wait up to SECONDS for the lock (default 0).")
    int waitSeconds;

    @Override
    public Integer call() throws InterruptedException {
        if (waitSeconds < 0) {
            throw new CliException("--wait must be zero or more seconds");
        }
        SidecarClient client = client();
        ProcessIdentity self = ProcessIdentity.current();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("pid", self.pid());
        if (self.startedAt() != null) {
            body.put("pid_start", self.startedAt().toString());
        }
        body.put("host", CallerSession.hostName());
        body.put("purpose", String.join(" ", command));
        body.put("wait_seconds", waitSeconds);
        JsonNode reply = client.post("/v1/named-locks/acquire", body, Duration.ofSeconds(waitSeconds + 30L));
        if (!reply.path("acquired").asBoolean()) {
            JsonNode lock = reply.path("lock");
            spec.commandLine().getErr().printf("%s is held by pid %s on %s since %s (%s, running: %s)%n", name,
                    lock.path("pid").asText(), lock.path("host").asText("?"), lock.path("since").asText(),
                    lock.path("alive").asText(), lock.path("purpose").asText("?"));
            return 75; // EX_TEMPFAIL: try again later
        }
        TiedCommand tied = TiedCommand.prepare(command);
        Thread release = new Thread(() -> {
            tied.end(); // CMD first: the lock must not pass on while CMD still runs
            releaseQuietly(client, self.pid());
        }, "baton-exclusive-release");
        Runtime.getRuntime().addShutdownHook(release);
        try {
            return tied.start().waitFor();
        } catch (IOException e) {
            throw new CliException("cannot run " + command.get(0) + ": " + e.getMessage());
        } finally {
            tied.end();
            releaseQuietly(client, self.pid());
            Runtime.getRuntime().removeShutdownHook(release);
        }
    }

    private void releaseQuietly(SidecarClient client, long pid) {
        try {
            client.post("/v1/named-locks/release", Map.of("name", name, "pid", pid), Duration.ofSeconds(5));
        } catch (CliException e) {
            spec.commandLine().getErr().println("could not release " + name + ": " + e.getMessage()
                    + " (it frees itself once this process has exited)");
        }
    }
}
