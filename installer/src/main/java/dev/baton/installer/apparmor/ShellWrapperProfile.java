package dev.baton.installer.apparmor;

import dev.baton.installer.config.FileStep;
import dev.baton.installer.config.HookCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * The AppArmor profile that lets Baton's shell wrapper, and no other program, make user namespaces where AppArmor
 * restricts them: unconfined but for the {@code userns} rule, in the form Ubuntu documents for such programs (as for
 * bubblewrap). Baton writes it beside the wrapper; the user puts it in place with the one root step, since loading a
 * profile needs root. The one writer of the profile's text.
 */
public final class ShellWrapperProfile {

    /** The profile's name, as the kernel's list and {@code /etc/apparmor.d} name it. */
    public static final String NAME = "baton-shell";

    private static final String SYSTEM_FILE = "/" + UsernsRestriction.SYSTEM_PROFILE;

    private ShellWrapperProfile() {
    }

    /**
     * The profile for the wrapper installed at {@code wrapper}, an absolute path. A path with a character AppArmor
     * reads as syntax (a space, a quote, {@code #}, {@code ,}) is quoted, and the characters it reads as a pattern
     * ({@code * ? [ ] { } ^}) and the escape itself are escaped, so the profile attaches to that one file.
     */
    public static String text(Path wrapper) {
        String path = wrapper.toString();
        if (!wrapper.isAbsolute() || path.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("An AppArmor profile attaches to an absolute path without control"
                    + " characters, not " + path);
        }
        return "# Written by `baton install`: lets Baton's shell wrapper, and only it, make the user namespace in which\n"
                + "# it makes the files other sessions hold read-only, where AppArmor restricts unprivileged user\n"
                + "# namespaces (kernel.apparmor_restrict_unprivileged_userns=1, Ubuntu 23.10 and later).\n"
                + "abi <abi/4.0>,\n"
                + "\n"
                + "include <tunables/global>\n"
                + "\n"
                + "profile " + NAME + " " + attachment(path) + " flags=(unconfined) {\n"
                + "  userns,\n"
                + "\n"
                + "  # Site-specific additions and overrides. See local/README for details.\n"
                + "  include if exists <local/" + NAME + ">\n"
                + "}\n";
    }

    private static String attachment(String path) {
        String escaped = path.replaceAll("([\\\\\"*?\\[\\]{}^])", "\\\\$1");
        boolean quote = !escaped.equals(path) || path.chars().anyMatch(c -> Character.isWhitespace(c) || c == '#' || c == ',');
        return quote ? "\"" + escaped + "\"" : path;
    }

    /** The file beside the wrapper that {@code baton install} writes the profile to. */
    public static Path file(Path wrapper) {
        return wrapper.resolveSibling(NAME + ".apparmor");
    }

    /** The root step that puts the profile written to {@code file} in place and loads it, for the user to run. */
    public static String loadStep(Path file) {
        return "sudo install -m 0644 " + HookCommand.shellWord(file.toString()) + " " + SYSTEM_FILE
                + " && sudo apparmor_parser -r " + SYSTEM_FILE;
    }

    /** The root step that unloads the profile and removes it from {@code /etc/apparmor.d}. */
    public static String removeStep() {
        return "sudo apparmor_parser -R " + SYSTEM_FILE + " && sudo rm " + SYSTEM_FILE;
    }

    /** Writes the profile for {@code wrapper} beside it (readable by all, as the root step installs it). */
    public static FileStep write(Path wrapper, boolean dryRun) throws IOException {
        Path file = file(wrapper);
        String text = text(wrapper);
        String what = "AppArmor profile for the shell wrapper";
        Optional<String> now = Files.isRegularFile(file) ? Optional.of(Files.readString(file, StandardCharsets.UTF_8))
                : Optional.empty();
        if (now.isPresent() && now.get().equals(text)) {
            return new FileStep("unchanged", file, what);
        }
        String verb = now.isPresent() ? "updated" : "created";
        if (dryRun) {
            return new FileStep("would be " + verb, file, what);
        }
        Files.createDirectories(file.getParent());
        Path temp = Files.createTempFile(file.getParent(), "." + file.getFileName() + ".", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
        Files.writeString(temp, text, StandardCharsets.UTF_8);
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return new FileStep(verb, file, what);
    }

    /** Deletes the profile {@code baton install} wrote beside the wrapper; empty when there is none. */
    public static Optional<FileStep> delete(Path wrapper, boolean dryRun) throws IOException {
        Path file = file(wrapper);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        if (!dryRun) {
            Files.delete(file);
        }
        return Optional.of(new FileStep(dryRun ? "would delete" : "deleted", file, "AppArmor profile for the shell wrapper"));
    }

    /** Why the install wrote the profile, and the root step that puts it in place. */
    public static String installNote(Path file) {
        return "note: AppArmor restricts unprivileged user namespaces on this machine, so Baton's shell wrapper cannot"
                + " make the files other sessions hold read-only: without the profile, the agents' shell commands are"
                + " only predicted and checked after they run, not enforced. This root step lets the wrapper, and no"
                + " other program, make its namespace (no system-wide setting changes):\n  " + loadStep(file);
    }

    /** What is left to do as root after the profile's file is gone. */
    public static String uninstallNote() {
        return "note: AppArmor still has Baton's profile for the shell wrapper; remove it as root:\n  " + removeStep();
    }
}
