package dev.baton.installer.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.doctor.Check.Status;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.doctor.ProbeRun;
import dev.baton.installer.layout.Agent;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The doctor's checks of how each agent's shell commands are guarded: whether this machine can make the files other
 * sessions hold read-only for a command (a probe run of the installed wrapper, {@code baton-shell --read-only}, on a scratch file), and per agent
 * whether its commands pass through Baton's wrapper: Claude Code through CLAUDE_CODE_SHELL_PREFIX, Codex CLI through
 * the BASH_ENV of its commands, Copilot CLI and Gemini CLI through their hooks, which rewrite a command while other
 * sessions hold files. Where the wrapper cannot work, the checks before and after a command still apply: the line
 * says so without counting as a problem.
 */
public final class ShellWrapperChecks {

    private ShellWrapperChecks() {
    }

    /** Runs the installed wrapper with a scratch file read-only, and expects the write to the file to fail. */
    public static Check kernel(InstallLayout layout, Map<String, String> environment) {
        String subject = "shell guard";
        Path guard = layout.shellWrapper();
        if (!Files.isRegularFile(guard)) {
            return Check.problem(subject, guard + " is missing", "run `baton install` again");
        }
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("baton-doctor-guard");
            Path held = Files.writeString(scratch.resolve("held.txt"), "held\n");
            ProbeRun result = ProbeRun.run(List.of("perl", guard.toString(), "--read-only", held.toString(), "--",
                    "/bin/sh", "-c", "echo changed >> \"$0\"", held.toString()), environment, scratch, new byte[0]);
            String after = Files.readString(held, StandardCharsets.UTF_8);
            if (result.exit() != 0 && after.equals("held\n")) {
                return Check.ok(subject, "agents' shell commands find the files other sessions hold read-only (user and"
                        + " mount namespaces work here)");
            }
            String why = result.err().lines().filter(line -> line.startsWith("Baton could not")).findFirst()
                    .orElse(result.err().isBlank() ? "the probe's write to a held file went through." : ProbeRun.firstLine(result.err()));
            return new Check(Status.SKIPPED, subject, "predicted only: " + why + " Baton still checks each command before"
                    + " and after it runs.", "");
        } catch (IOException e) {
            return new Check(Status.SKIPPED, subject, "predicted only: the guard could not be tried (" + e.getMessage()
                    + ")", "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Check(Status.SKIPPED, subject, "not tried: interrupted", "");
        } finally {
            if (scratch != null) {
                try (var files = Files.walk(scratch)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
                } catch (IOException e) {
                    // a temporary directory left behind is harmless
                }
            }
        }
    }

    /**
     * Whether the agent's shell commands pass through the wrapper, given the hook file holding all of Baton's hooks
     * for it (the first scope found), or empty when there is none.
     */
    public static Optional<Check> agent(InstallLayout layout, Agent agent, Optional<ObjectNode> hooksTree) {
        String subject = agent.displayName().split(" ")[0] + " shell";
        switch (agent) {
            case CLAUDE -> {
                if (hooksTree.isEmpty()) {
                    return Optional.empty();
                }
                if (ClaudeSettings.hasShellPrefix(hooksTree.get(), layout.hookScript())) {
                    return Optional.of(Check.ok(subject, "every Bash command runs through Baton's wrapper ("
                            + ClaudeSettings.SHELL_PREFIX + ")"));
                }
                return Optional.of(Check.problem(subject, "the settings holding Baton's hooks do not set "
                        + ClaudeSettings.SHELL_PREFIX + " to Baton's wrapper (" + ClaudeSettings.shellPrefix(layout.hookScript())
                        + "): Bash commands are only checked before and after they run", "run `baton install --claude` again"));
            }
            case CODEX -> {
                Path config = AgentFiles.codexConfig(layout);
                try {
                    String text = Files.exists(config) ? Files.readString(config) : "";
                    Optional<String> set = CodexConfigToml.shellEnvironment(text);
                    String ours = layout.hookScript().resolveSibling(HookScript.BASH_ENV).toAbsolutePath().toString();
                    if (set.isPresent() && set.get().equals(ours)) {
                        return Optional.of(Check.ok(subject, "commands run by bash pass through Baton's wrapper (BASH_ENV in "
                                + config + "); a command run by another shell is checked before and after it runs"));
                    }
                    if (set.isPresent()) {
                        return Optional.of(new Check(Status.SKIPPED, subject, "predicted only: " + config + " sets BASH_ENV"
                                + " for Codex's commands itself (" + set.get() + ")", ""));
                    }
                    return Optional.of(Check.problem(subject, config + " does not run Codex's commands through Baton's"
                            + " wrapper (no BASH_ENV in shell_environment_policy.set)", "run `baton install --codex` again"));
                } catch (IOException e) {
                    return Optional.of(Check.problem(subject, "cannot read " + config + ": " + e.getMessage(),
                            "fix the file, then run `baton install --codex` again"));
                }
            }
            default -> {
                return Optional.of(Check.ok(subject, "while other sessions hold files, its hook has each command run"
                        + " through Baton's wrapper (its permission rules then see the wrapped command)"));
            }
        }
    }
}
