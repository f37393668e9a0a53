package dev.baton.installer.apparmor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether AppArmor keeps Baton's shell wrapper from making its user namespace, as read from the kernel's files under
 * one root ({@code /} on a real machine): Ubuntu 23.10 and later set {@code kernel.apparmor_restrict_unprivileged_userns}
 * to 1, so a namespace made by a program without a profile that allows {@code userns} loses its capabilities and every
 * bind in it fails. The one reader of those files.
 *
 * @param appArmorEnabled the kernel runs AppArmor ({@value #ENABLED} is Y)
 * @param restricted      {@value #RESTRICT} is 1
 * @param loaded          whether the kernel's profile list ({@value #PROFILES}, readable by root only on most
 *                        machines) names Baton's profile
 * @param installed       the text of {@value #SYSTEM_PROFILE}, where the root step puts Baton's profile, if it is there
 */
public record UsernsRestriction(boolean appArmorEnabled, boolean restricted, Loaded loaded, Optional<String> installed) {

    public static final String RESTRICT = "proc/sys/kernel/apparmor_restrict_unprivileged_userns";
    public static final String ENABLED = "sys/module/apparmor/parameters/enabled";
    public static final String PROFILES = "sys/kernel/security/apparmor/profiles";
    public static final String SYSTEM_PROFILE = "etc/apparmor.d/" + ShellWrapperProfile.NAME;

    /** What the kernel's profile list says of Baton's profile. */
    public enum Loaded {
        YES, NO, UNKNOWN
    }

    /** Reads the files under {@code root}; a file that is missing or unreadable counts as "no" (or unknown, for the list). */
    public static UsernsRestriction read(Path root) {
        boolean enabled = firstLine(root.resolve(ENABLED)).map(value -> value.equals("Y")).orElse(false);
        boolean restricted = firstLine(root.resolve(RESTRICT)).map(value -> value.equals("1")).orElse(false);
        Loaded loaded;
        try {
            loaded = Files.readAllLines(root.resolve(PROFILES), StandardCharsets.UTF_8).stream()
                    // A line is "NAME (MODE)".
                    .anyMatch(line -> line.startsWith(ShellWrapperProfile.NAME + " (")) ? Loaded.YES : Loaded.NO;
        } catch (IOException e) {
            loaded = Loaded.UNKNOWN;
        }
        Optional<String> installed;
        try {
            installed = Optional.of(Files.readString(root.resolve(SYSTEM_PROFILE), StandardCharsets.UTF_8));
        } catch (IOException e) {
            installed = Optional.empty();
        }
        return new UsernsRestriction(enabled, restricted, loaded, installed);
    }

    /** AppArmor strips the capabilities of the namespaces unprivileged programs make. */
    public boolean restrictsUserns() {
        return appArmorEnabled && restricted;
    }

    /**
     * Whether the wrapper needs the root step before it can enforce: AppArmor restricts user namespaces, and no profile
     * with this text is in place (one in {@value #SYSTEM_PROFILE} with other text names another path for the wrapper).
     * Where the kernel's list cannot be read, the file in {@value #SYSTEM_PROFILE} stands for the profile loaded from
     * it: the root step loads it, and AppArmor loads it again at every boot.
     */
    public boolean needsProfile(String profile) {
        if (!restrictsUserns()) {
            return false;
        }
        if (installed.isPresent() && !installed.get().equals(profile)) {
            return true;
        }
        return switch (loaded) {
            case YES -> false;
            case NO -> true;
            case UNKNOWN -> installed.isEmpty();
        };
    }

    /** Whether a profile of Baton's is known to be in place, so that uninstalling should take it out too. */
    public boolean hasProfile() {
        return loaded == Loaded.YES || installed.isPresent();
    }

    private static Optional<String> firstLine(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream().findFirst().map(String::strip);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
