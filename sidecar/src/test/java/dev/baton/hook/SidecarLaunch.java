package dev.baton.hook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Ways the tests start a real sidecar outside the test JVM: a {@code baton} command running this build's classes
 * (as the launcher does: {@code exec java … "$@"}, standard input untouched), and a listening socket handed to it
 * on standard input the way systemd's socket activation does it ({@code StandardInput=socket}).
 */
final class SidecarLaunch {

    /**
     * activator HOST PORTFILE WAIT COMMAND…: listens on HOST (any free port), writes the port to PORTFILE, with
     * WAIT=1 waits for a first connection as systemd does before it starts a socket-activated service, then runs
     * COMMAND with the listening socket as its standard input. Perl, whose IO::Socket is in every perl install.
     */
    private static final String ACTIVATOR = """
            use strict; use IO::Socket::INET; use IO::Select;
            my ($host, $portfile, $wait, @command) = @ARGV;
            my $listener = IO::Socket::INET->new(Listen => 128, LocalAddr => $host, LocalPort => 0, Proto => 'tcp')
                or die "cannot listen on $host: $!";
            open(my $out, '>', "$portfile.tmp") or die "$portfile.tmp: $!";
            print $out $listener->sockport, "\\n";
            close $out;
            rename("$portfile.tmp", $portfile) or die "rename: $!";
            IO::Select->new($listener)->can_read() if $wait;
            open(STDIN, '<&', $listener) or die "dup: $!";
            exec { $command[0] } @command or die "exec $command[0]: $!";
            """;

    private SidecarLaunch() {
    }

    /** A {@code baton} command at {@code path} that runs this build; {@code before} is shell run first. */
    static Path batonCommand(Path path, String before, String... extraArgs) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(path, "#!/bin/sh\n" + before + "exec '" + java + "' -cp '" + System.getProperty("java.class.path")
                + "' dev.baton.cli.BatonCommand \"$@\"" + (extraArgs.length == 0 ? "" : " " + String.join(" ", extraArgs))
                + "\n");
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
        return path;
    }

    /** The perl on PATH, if any; without it the inherited-socket tests are skipped with that reason. */
    static Optional<Path> perl() {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        return Stream.of(path.split(":"))
                .filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry, "perl"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** Writes the activator script into {@code dir} and returns its path. */
    static Path activator(Path dir) throws IOException {
        Path script = dir.resolve("activator.pl");
        Files.writeString(script, ACTIVATOR);
        return script;
    }
}
