package dev.baton.shell;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The program a simple command really runs and its arguments, past the wrappers that only run another command
 * ({@code sudo}, {@code env}, {@code timeout 60}, {@code npx}, {@code uv run} …), with the environment assignments
 * written in front of it.
 *
 * @param name the program's base name ({@code /usr/bin/sed} is {@code sed})
 * @param chdir the directory a wrapper runs it in ({@code env -C DIR}, {@code git -C} is git's own), or null
 */
record Invocation(String name, List<Word> args, Map<String, String> env, String chdir) {

    /** Wrappers and the options of theirs that take a value. */
    private static final Map<String, Set<String>> WRAPPERS = Map.ofEntries(
            Map.entry("sudo", Set.of("-u", "-g", "-C", "-D", "-h", "-p", "-U", "-r", "-t")),
            Map.entry("env", Set.of("-u", "-C", "-S")),
            Map.entry("command", Set.of()),
            Map.entry("builtin", Set.of()),
            Map.entry("nohup", Set.of()),
            Map.entry("nice", Set.of("-n")),
            Map.entry("ionice", Set.of("-c", "-n", "-p")),
            Map.entry("stdbuf", Set.of("-i", "-o", "-e")),
            Map.entry("time", Set.of("-f", "-o")),
            Map.entry("timeout", Set.of("-k", "-s", "--kill-after", "--signal")),
            Map.entry("npx", Set.of("-p", "--package")),
            Map.entry("bunx", Set.of()),
            Map.entry("uvx", Set.of("--from", "--with")),
            Map.entry("doas", Set.of("-u")));

    /** {@code uv run X}, {@code poetry run X}, {@code pnpm exec X}: two words that only run the rest. */
    private static final Set<String> RUNNERS = Set.of("uv run", "poetry run", "pipenv run", "pnpm exec", "pnpm dlx",
            "yarn dlx", "yarn exec", "npm exec", "pipx run", "bundle exec", "rye run", "hatch run", "pdm run");

    /** The invocation behind the wrappers; null when the program's name is not literal ({@code $EDITOR file}). */
    static Invocation of(List<Word> words, List<Word> assignments) {
        Map<String, String> env = new java.util.HashMap<>();
        for (Word assignment : assignments) {
            String value = assignment.literal();
            if (value != null && value.contains("=")) {
                env.put(value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1));
            }
        }
        String chdir = null;
        int i = 0;
        while (i < words.size()) {
            String word = words.get(i).literal();
            if (word == null) {
                return null;
            }
            String name = baseName(word);
            if (i + 1 < words.size() && RUNNERS.contains(name + " " + words.get(i + 1).literal())) {
                i += 2;
                continue;
            }
            Set<String> valued = WRAPPERS.get(name);
            if (valued == null) {
                return new Invocation(name, List.copyOf(words.subList(i + 1, words.size())), env, chdir);
            }
            i++;
            boolean durationDue = name.equals("timeout");
            while (i < words.size()) {
                String arg = words.get(i).literal();
                if (arg == null) {
                    return null;
                }
                if (name.equals("env") && (arg.equals("-C") || arg.equals("--chdir")) && i + 1 < words.size()) {
                    String dir = words.get(i + 1).literal();
                    if (dir == null) {
                        return null;
                    }
                    chdir = chdir == null || dir.startsWith("/") ? dir : chdir + "/" + dir;
                    i += 2;
                } else if (name.equals("env") && (arg.startsWith("--chdir=") || arg.startsWith("-C") && arg.length() > 2)) {
                    String dir = arg.startsWith("--chdir=") ? arg.substring(8) : arg.substring(2);
                    chdir = chdir == null || dir.startsWith("/") ? dir : chdir + "/" + dir;
                    i++;
                } else if (arg.startsWith("-") && arg.length() > 1) {
                    i += valued.contains(arg) ? 2 : 1;
                } else if (name.equals("env") && arg.contains("=")) {
                    env.put(arg.substring(0, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
                    i++;
                } else if (durationDue) {
                    durationDue = false;
                    i++;
                } else {
                    break;
                }
            }
        }
        return new Invocation("true", List.of(), env, chdir); // `env` or `sudo -v` alone runs nothing of the agent's
    }

    static String baseName(String program) {
        int slash = program.lastIndexOf('/');
        return slash >= 0 ? program.substring(slash + 1) : program;
    }
}
