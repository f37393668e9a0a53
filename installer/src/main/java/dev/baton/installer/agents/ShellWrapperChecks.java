package dev.baton.installer.agents;

import dev.baton.installer.apparmor.ShellWrapperProfile;
import dev.baton.installer.apparmor.UsernsRestriction;
import dev.baton.installer.doctor.Check.Status;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.doctor.ProbeRun;
import dev.baton.installer.layout.InstallLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The doctor's checks of how the agents' shell commands are guarded: whether this machine can make the files other
 * sessions hold read-only for a command (a probe run of the installed wrapper, {@code baton-shell --read-only}, on a
 * scratch file), and the line of an agent whose hooks rewrite a command while other sessions hold files. Each agent
 * checks its own way of passing commands through the wrapper (Claude Code's CLAUDE_CODE_SHELL_PREFIX, Codex CLI's
 * BASH_ENV). Where the wrapper cannot work, the checks before and after a command still apply: the line says so
 * without counting as a problem; where AppArmor is why, it names the root step that lifts it for the wrapper alone.
 */
public final class ShellWrapperChecks {

    /** The subject of the machine's line. */
    public static final String SUBJECT = "shell guard";

    /**
     * How the agents' shell commands run on this machine, from the probe: enforced (held files are read-only to
     * them), or predicted only, with why.
     */
    public record Mode(boolean enforced, String why) {

        /** The mode a probe's check stands for. */
        public static Mode of(Check kernel) {
            return kernel.status() == Status.OK ? new Mode(true, "")
                    : new Mode(false, kernel.detail().replaceFirst("^predicted only: ", ""));
        }

        /** An agent's line saying its commands pass through the wrapper, with the mode they run in. */
        public Check apply(Check wired) {
            if (wired.status() != Status.OK) {
                return wired;
            }
            return enforced ? Check.ok(wired.subject(), "enforced: " + wired.detail())
                    : new Check(Status.SKIPPED, wired.subject(), "predicted only: " + wired.detail() + "; " + why, "");
        }
    }

    private ShellWrapperChecks() {
    }

    /** Runs the installed wrapper with a scratch file read-only, and expects the write to the file to fail. */
    public static Check kernel(InstallLayout layout, Map<String, String> environment, UsernsRestriction userns) {
        String subject = SUBJECT;
        Path guard = layout.shellWrapper();
        if (!Files.isRegularFile(guard)) {
            return Check.problem(subject, guard + " is missing", "run `baton install` again");
        }
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("baton-doctor-guard");
            Path held = Files.writeString(scratch.resolve("held.txt"), "held\n");
            ProbeRun result = ProbeRun.run(List.of(guard.toString(), "--read-only", held.toString(), "--",
                    "/bin/sh", "-c", "echo changed >> \"$0\"", held.toString()), environment, scratch, new byte[0]);
            String after = Files.readString(held, StandardCharsets.UTF_8);
            if (result.exit() != 0 && after.equals("held\n")) {
                return Check.ok(subject, "agents' shell commands find the files other sessions hold read-only (user and"
                        + " mount namespaces work here" + (userns.restrictsUserns() ? ", through Baton's AppArmor"
                        + " profile " + ShellWrapperProfile.NAME : "") + ")");
            }
            if (appArmorStops(guard, userns)) {
                return new Check(Status.SKIPPED, subject, "predicted only: " + appArmorWhy(guard), "");
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

    private static boolean appArmorStops(Path guard, UsernsRestriction userns) {
        try {
            return userns.needsProfile(ShellWrapperProfile.text(guard));
        } catch (IllegalArgumentException e) {
            return false; // no profile can name this path: the wrapper's own words say why
        }
    }

    /** Why AppArmor stops the wrapper, with the root step that lets it make its namespace. */
    private static String appArmorWhy(Path guard) {
        Path profile = ShellWrapperProfile.file(guard);
        String step = ShellWrapperProfile.loadStep(profile);
        return "AppArmor restricts user namespaces (kernel.apparmor_restrict_unprivileged_userns=1) and no AppArmor"
                + " profile lets Baton's wrapper make one; fix: " + (Files.isRegularFile(profile) ? step
                : "run `baton install` again (it writes " + profile + "), then " + step);
    }

    /** An agent whose hook has each shell command run through the wrapper while other sessions hold files. */
    public static Check throughHook(AgentWiring agent) {
        return Check.ok(subject(agent), "while other sessions hold files, its hook has each command run"
                + " through Baton's wrapper (its permission rules then see the wrapped command)");
    }

    /** The subject of an agent's shell check ("Claude shell"). */
    public static String subject(AgentWiring agent) {
        return AgentChecks.subject(agent, "shell");
    }
}
