package dev.baton.installer.apparmor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The kernel's AppArmor files as a machine shows them, laid out under a directory that stands for its root. */
public final class SimulatedKernel {

    private final Path root;

    public SimulatedKernel(Path root) {
        this.root = root;
    }

    /** Ubuntu 24.04 as it comes: AppArmor on, unprivileged user namespaces restricted, no profile of Baton's. */
    public SimulatedKernel ubuntu2404() throws IOException {
        return appArmor(true).restrictUserns(true).profiles("unprivileged_userns (enforce)", "/usr/bin/man (enforce)");
    }

    public SimulatedKernel appArmor(boolean enabled) throws IOException {
        return write(UsernsRestriction.ENABLED, enabled ? "Y\n" : "N\n");
    }

    public SimulatedKernel restrictUserns(boolean restricted) throws IOException {
        return write(UsernsRestriction.RESTRICT, restricted ? "1\n" : "0\n");
    }

    /** The kernel's list of loaded profiles, one "NAME (MODE)" a line. */
    public SimulatedKernel profiles(String... lines) throws IOException {
        return write(UsernsRestriction.PROFILES, String.join("\n", lines) + "\n");
    }

    /** The list as a user who is not root finds it: there, but unreadable. */
    public SimulatedKernel profilesUnreadable() throws IOException {
        Path list = root.resolve(UsernsRestriction.PROFILES);
        Files.deleteIfExists(list);
        Files.createDirectories(list); // reading a directory fails as reading a file without the right does
        return this;
    }

    /** What the root step leaves behind: the profile in /etc/apparmor.d. */
    public SimulatedKernel installedProfile(String text) throws IOException {
        return write(UsernsRestriction.SYSTEM_PROFILE, text);
    }

    private SimulatedKernel write(String file, String text) throws IOException {
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text, StandardCharsets.UTF_8);
        return this;
    }
}
