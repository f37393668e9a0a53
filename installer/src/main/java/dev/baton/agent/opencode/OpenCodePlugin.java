package dev.baton.agent.opencode;

import dev.baton.installer.config.FileStep;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Optional;

/**
 * Baton's OpenCode plug-in file, {@code baton.js} in a plug-in directory OpenCode loads every {@code *.js} of at start
 * ({@code ~/.config/opencode/plugins/} for the user, {@code .opencode/plugins/} of a project). It is the packaged
 * {@value #RESOURCE} with the installed hook script's path filled in, through which a rewritten shell command runs and
 * beside which the launcher is. Baton alone writes the file: install writes it whole, uninstall deletes it, and a
 * file of that name Baton did not write is refused rather than replaced.
 */
public record OpenCodePlugin(Path file, String text) {

    public static final String RESOURCE = "dev/baton/hook/baton-opencode.js";
    public static final String FILE_NAME = "baton.js";
    private static final String PLACEHOLDER = "\"@BATON_HOOK_SCRIPT@\"";
    /** The first words of the plug-in, by which an earlier install's copy is told from a file of the user's. */
    private static final String MARK = "// Baton's OpenCode plug-in";

    /** Where the plug-in goes at a scope; OpenCode has no private project scope. */
    public static Optional<Path> file(InstallLayout layout, Scope scope, Path project) {
        return switch (scope) {
            case USER -> Optional.of(OpenCodeWiring.directory(layout).resolve("plugins").resolve(FILE_NAME));
            case PROJECT -> Optional.of(project.resolve(".opencode/plugins").resolve(FILE_NAME));
            case LOCAL -> Optional.empty();
        };
    }

    /** The plug-in as this install writes it to {@code file}, for the installed hook script. */
    public static OpenCodePlugin of(Path file, Path hookScript) throws InstallerException {
        try (InputStream in = OpenCodePlugin.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new InstallerException("This build of Baton lacks its OpenCode plug-in (classpath resource "
                        + RESOURCE + "). Rebuild it with the hook-scripts module, e.g. mvn -B package.");
            }
            String template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String script = JsonText.MAPPER.writeValueAsString(hookScript.toAbsolutePath().toString());
            return new OpenCodePlugin(file, template.replace(PLACEHOLDER, script));
        } catch (IOException e) {
            throw new InstallerException("Cannot read the packaged OpenCode plug-in " + RESOURCE + ": " + e.getMessage(), e);
        }
    }

    /** The file's bytes now, or null when there is none; a file of that name that is not Baton's is refused. */
    public byte[] current() throws InstallerException {
        if (!Files.exists(file)) {
            return null;
        }
        try {
            byte[] bytes = Files.readAllBytes(file);
            if (!new String(bytes, StandardCharsets.UTF_8).startsWith(MARK)) {
                throw new InstallerException("Refusing to touch " + file + ": it is not Baton's OpenCode plug-in (it does"
                        + " not start with \"" + MARK + "\"). Rename or move it, then run the command again; nothing was"
                        + " changed.");
            }
            return bytes;
        } catch (IOException e) {
            throw new InstallerException("Cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Whether the file holds exactly what this install writes. */
    public boolean isCurrent() throws InstallerException {
        return Arrays.equals(current(), text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes the plug-in (atomically, readable by all, as OpenCode's own files) unless it is there already. */
    public FileStep write(byte[] before, boolean dryRun) throws IOException {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        if (Arrays.equals(before, content)) {
            return new FileStep("unchanged", file, "");
        }
        String verb = before == null ? "created" : "updated";
        if (dryRun) {
            return new FileStep("would be " + verb, file, "Baton's OpenCode plug-in");
        }
        Files.createDirectories(file.getParent());
        Path temp = Files.createTempFile(file.getParent(), "." + FILE_NAME + ".", ".tmp");
        try {
            Files.write(temp, content);
            Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        return new FileStep(verb, file, "Baton's OpenCode plug-in");
    }

    /** Deletes the plug-in; empty when there was none. */
    public static Optional<FileStep> delete(Path file, boolean dryRun) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        if (!dryRun) {
            Files.delete(file);
        }
        return Optional.of(new FileStep(dryRun ? "would be deleted" : "deleted", file, "Baton's OpenCode plug-in"));
    }
}
