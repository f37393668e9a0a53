package dev.baton.installer;

import dev.baton.agent.AgentWirings;
import dev.baton.installer.agents.AgentWiring;
import dev.baton.installer.agents.Target;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import dev.baton.installer.program.ProgramSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/** A user's machine inside a temporary directory: a home, one project, a Baton jar, and what the commands print. */
final class TestMachine {

    /**
     * Stands in for the packaged hook script, which lets every hook call through, and for the packaged MCP server,
     * which lists one tool. The other scripts installed beside it are the packaged ones.
     */
    static final HookScript SCRIPT = new HookScript("""
            #!/usr/bin/env bash
            # stand-in for the packaged hook script
            exit 0
            """.getBytes(StandardCharsets.UTF_8), packagedCompanions());

    /** Stands in for the packaged MCP server: answers initialize and lists one tool. */
    static final String MCP_SERVER = """
            #!/usr/bin/env bash
            # stand-in for the packaged MCP server
            while IFS= read -r line; do
              [[ $line =~ \\"id\\":([0-9]+) ]] || continue
              case $line in
                *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"lock_acquire"}]}}\\n' "${BASH_REMATCH[1]}" ;;
                *) printf '{"jsonrpc":"2.0","id":%s,"result":{}}\\n' "${BASH_REMATCH[1]}" ;;
              esac
            done
            """;

    private static Map<String, byte[]> packagedCompanions() {
        try {
            Map<String, byte[]> companions = new HashMap<>(HookScript.packaged().companions());
            companions.put(HookScript.MCP, MCP_SERVER.getBytes(StandardCharsets.UTF_8));
            return companions;
        } catch (InstallerException e) {
            throw new IllegalStateException(e);
        }
    }

    final Path root;
    final Path home;
    final Path project;
    final Path jar;
    /** The root the kernel's files are read from: empty (no AppArmor) until a test lays some out. */
    final Path system;
    final Map<String, String> env = new HashMap<>();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    TestMachine(Path root) throws IOException {
        this.root = root;
        this.home = Files.createDirectories(root.resolve("home/dev"));
        this.project = Files.createDirectories(root.resolve("work/shop"));
        this.jar = root.resolve("dist/baton-0.1.0.jar");
        this.system = Files.createDirectories(root.resolve("system"));
        Files.createDirectories(jar.getParent());
        Files.write(jar, "PK\u0003\u0004 stand-in jar".getBytes(StandardCharsets.UTF_8));
        env.put("HOME", home.toString());
        env.put("PATH", home.resolve(".local/bin") + ":/usr/local/bin:/usr/bin:/bin");
    }

    InstallLayout layout() {
        return InstallLayout.fromEnvironment(env);
    }

    Installer installer() {
        return new Installer(layout(), SCRIPT, new ProgramSource(jar, jar.toString()),
                new PrintWriter(out, true), new PrintWriter(err, true), system);
    }

    Uninstaller uninstaller() {
        return new Uninstaller(layout(), new PrintWriter(out, true), system);
    }

    int install(Scope scope, AgentWiring... agents) throws InstallerException {
        return installer().install(target(scope, agents), false, true);
    }

    int uninstall(Scope scope, AgentWiring... agents) throws InstallerException {
        return uninstaller().uninstall(target(scope, agents), false, false);
    }

    Target target(Scope scope, AgentWiring... agents) {
        // In the order of the agents' list, as the command line gives them.
        List<AgentWiring> named = List.of(agents);
        return new Target(agents.length == 0 ? AgentWirings.ALL
                : AgentWirings.ALL.stream().filter(named::contains).toList(), scope, project);
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }

    /** The installed hook script's absolute path, as the agents' hook configs name it. */
    String hookScript() {
        return layout().hookScript().toString();
    }

    Path userSettings() {
        return home.resolve(".claude/settings.json");
    }

    static String resource(String name) throws IOException {
        try (InputStream in = TestMachine.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** Every regular file under the root with its content, to prove that nothing was written. */
    Map<Path, String> allFiles() throws IOException {
        Map<Path, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(path), Files.readString(path, StandardCharsets.ISO_8859_1)
                        + "@" + Files.getLastModifiedTime(path).toMillis());
            }
        }
        return files;
    }
}
