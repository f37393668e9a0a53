package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every {@code baton …} command that the docs, the dashboard and the sidecar's own messages show a person exists in
 * the real command tree, with the options they name.
 */
class DocumentedCommandsTest {

    /** The repository root: tests run in {@code sidecar/}. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** A command in backticks (Markdown, or a message in Java source), or a shell line of a fenced block. */
    private static final Pattern QUOTED = Pattern.compile("`(?:bin/)?baton ([^`]+)`");
    private static final Pattern SHELL_LINE = Pattern.compile("(?m)^\\s*(?:bin/)?baton ([^#\\n]+)");

    @Test
    void everyCommandShownToAPersonExistsWithTheOptionsItNames() throws IOException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Path file : sources()) {
            String text = Files.readString(file);
            List<String> commands = new ArrayList<>();
            Matcher quoted = QUOTED.matcher(text);
            while (quoted.find()) {
                commands.add(quoted.group(1));
            }
            if (file.toString().endsWith(".md")) {
                Matcher line = SHELL_LINE.matcher(text);
                while (line.find()) {
                    commands.add(line.group(1));
                }
            }
            for (String command : commands) {
                checked++;
                problem(command).ifPresent(p -> problems.add(ROOT.relativize(file) + ": `baton " + command + "`: " + p));
            }
        }
        assertThat(checked).as("commands found in the docs and sources").isGreaterThan(40);
        assertThat(problems).isEmpty();
    }

    @Test
    void aCommandThatDoesNotExistIsCaught() {
        assertThat(problem("msg SESSION TEXT")).contains("msg has no subcommand SESSION (it has inbox, read, send)");
        assertThat(problem("locks --nmaed")).contains("locks has no option --nmaed");
        assertThat(problem("shutdown")).isPresent();
        assertThat(problem("negotiate FILE --reason \"…\" --urgent")).isEmpty();
    }

    private static List<Path> sources() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("dashboard/README.md")));
        for (String tree : List.of("docs", "dashboard/src/main/java", "sidecar/src/main/java", "installer/src/main/java")) {
            try (Stream<Path> walk = Files.walk(ROOT.resolve(tree))) {
                walk.filter(p -> p.toString().endsWith(".md") || p.toString().endsWith(".java")).forEach(files::add);
            }
        }
        files.removeIf(file -> !Files.isRegularFile(file));
        return files;
    }

    /** What is wrong with {@code baton ARGS}, if anything. */
    static java.util.Optional<String> problem(String args) {
        CommandLine line = BatonCommand.commandLine();
        boolean positionalSeen = false;
        for (String raw : args.trim().split("\\s+")) {
            String word = raw.replaceAll("^[\\[(\"']+|[\\])\"',;.:]+$", "");
            if (word.equals("--") || word.equals("|") || word.equals("&&") || word.equals("/")) {
                break; // what follows is another program's command line, or another command
            }
            CommandSpec spec = line.getCommandSpec();
            if (!positionalSeen && line.getSubcommands().containsKey(word)) {
                line = line.getSubcommands().get(word);
                continue;
            }
            if (word.startsWith("-") && word.length() > 1) {
                String name = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
                if (spec.findOption(name) == null && spec.unmatchedArgsBindings().isEmpty()) {
                    return java.util.Optional.of(qualified(spec) + " has no option " + name);
                }
                continue;
            }
            if (!positionalSeen && !line.getSubcommands().isEmpty() && !isJavaFragment(word) && !word.isEmpty()) {
                return java.util.Optional.of(qualified(spec) + " has no subcommand " + word + " (it has "
                        + String.join(", ", new java.util.TreeSet<>(line.getSubcommands().keySet())) + ")");
            }
            positionalSeen = true;
        }
        return java.util.Optional.empty();
    }

    /** A message built in Java source: `baton respond " + id + " release` splits into such words. */
    private static boolean isJavaFragment(String word) {
        return word.startsWith("\"") || word.startsWith("+") || word.contains("(") || word.contains(")");
    }

    private static String qualified(CommandSpec spec) {
        String name = spec.qualifiedName(" ");
        return name.startsWith("baton ") ? name.substring("baton ".length()) : name;
    }

    static {
        if (!Files.isDirectory(ROOT.resolve("dashboard"))) {
            throw new UncheckedIOException(new IOException("run from the sidecar module of the repository, not " + ROOT));
        }
    }
}
