package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code baton serve}'s arguments read without picocli mean what picocli makes of them; anything else goes to picocli. */
class ServeArgumentsTest {

    static Stream<List<String>> plainArguments() {
        return Stream.of(List.of(), List.of("--port", "0"), List.of("--port=7433"), List.of("--accept-empty-state"),
                List.of("--port", "65535", "--accept-empty-state"), List.of("--accept-empty-state", "--port=1"),
                List.of("--port", "99999"));
    }

    static Stream<List<String>> otherArguments() {
        return Stream.of(List.of("--help"), List.of("-h"), List.of("--port"), List.of("--port", "x"),
                List.of("--port", "-1"), List.of("--port="), List.of("--port", "1", "--port", "2"),
                List.of("--accept-empty-state", "--accept-empty-state"), List.of("--verbose"), List.of("extra"),
                List.of("--port", "123456"), List.of("--PORT", "1"));
    }

    @ParameterizedTest
    @MethodSource("plainArguments")
    void plainArgumentsGiveTheCommandPicocliWouldRun(List<String> args) {
        Optional<ServeCommand> plain = ServeCommand.fromPlainArguments(args.toArray(String[]::new));

        CommandLine picocli = BatonCommand.serveCommandLine();
        picocli.parseArgs(args.toArray(String[]::new));
        ServeCommand parsed = picocli.getCommand();
        assertThat(plain).isPresent();
        assertThat(plain.get().port).isEqualTo(parsed.port);
        assertThat(plain.get().acceptEmptyState).isEqualTo(parsed.acceptEmptyState);
    }

    @ParameterizedTest
    @MethodSource("otherArguments")
    void anythingElseIsLeftToPicocli(List<String> args) {
        assertThat(ServeCommand.fromPlainArguments(args.toArray(String[]::new))).isEmpty();
    }

    @Test
    void serveAloneExplainsItselfAsServeInTheWholeCommandTreeDoes() {
        StringWriter alone = new StringWriter();
        BatonCommand.serveCommandLine().usage(new PrintWriter(alone));
        StringWriter inTree = new StringWriter();
        BatonCommand.commandLine().getSubcommands().get("serve").usage(new PrintWriter(inTree));

        assertThat(alone.toString()).startsWith("Usage: baton serve").isEqualTo(inTree.toString());
    }
}
