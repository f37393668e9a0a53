package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.support.BatonCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Every command of the real command tree explains itself, however the user asks. */
class HelpTest {

    @TempDir Path home;
    @TempDir Path work;

    record Run(int exit, String out, String err) {
    }

    static Run runInProcess(String... args) {
        CommandLine line = BatonCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        int exit = line.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Every command path in the tree, e.g. [status], [msg], [msg, send]. */
    static Map<String, List<String>> everyCommand() {
        Map<String, List<String>> paths = new LinkedHashMap<>();
        collect(BatonCommand.commandLine(), new ArrayList<>(), paths);
        return paths;
    }

    private static void collect(CommandLine line, List<String> path, Map<String, List<String>> paths) {
        line.getSubcommands().forEach((name, sub) -> {
            List<String> next = new ArrayList<>(path);
            next.add(name);
            paths.put(String.join(" ", next), next);
            collect(sub, next, paths);
        });
    }

    @Test
    void everySubcommandAnswersDashDashHelpAndDashHWithItsUsage() {
        Map<String, List<String>> commands = everyCommand();
        assertThat(commands).containsKeys("serve", "status", "acquire", "msg send", "plan set", "install", "stop", "help");

        for (Map.Entry<String, List<String>> command : commands.entrySet()) {
            for (String flag : List.of("--help", "-h")) {
                List<String> args = new ArrayList<>(command.getValue());
                args.add(flag);
                Run run = runInProcess(args.toArray(String[]::new));
                assertThat(run.exit()).as("baton %s %s: %s", command.getKey(), flag, run.err()).isZero();
                assertThat(run.out()).as("baton %s %s", command.getKey(), flag).contains("Usage: baton " + command.getKey());
                assertThat(run.err()).as("baton %s %s", command.getKey(), flag).isEmpty();
            }
        }
    }

    @Test
    void helpNamingAnyTopLevelCommandPrintsThatCommandsUsage() {
        for (String command : BatonCommand.commandLine().getSubcommands().keySet()) {
            Run run = runInProcess("help", command);
            assertThat(run.exit()).as("baton help %s: %s", command, run.err()).isZero();
            assertThat(run.out()).as("baton help %s", command).contains("Usage: baton " + command);
        }
    }

    @Test
    void bareHelpFromARealShellListsTheCommands() {
        BatonCli.Result help = new BatonCli(home, work).run("help");

        assertThat(help.exit()).as(help.err()).isZero();
        assertThat(help.out()).contains("Usage: baton").contains("acquire").contains("stop").contains("help");
        assertThat(help.err()).isEmpty();
    }
}
