package dev.baton.installer.program;

import dev.baton.installer.config.EmptyParents;
import dev.baton.installer.config.FileStep;
import dev.baton.installer.layout.DashboardJar;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The files Baton runs from: the hook script, the program jar, a release's Java runtime, the {@code baton} launcher
 * and the {@code baton-hook} link in {@code ~/.local/bin}. Files whose content is already right are not rewritten.
 */
public final class ProgramFiles {

    /** Marks a launcher as Baton's, so an unrelated {@code baton} program is never overwritten or deleted. */
    public static final String LAUNCHER_MARK = "# Baton launcher";

    private static final Set<PosixFilePermission> EXECUTABLE = PosixFilePermissions.fromString("rwxr-xr-x");

    private final InstallLayout layout;

    public ProgramFiles(InstallLayout layout) {
        this.layout = layout;
    }

    public List<FileStep> install(HookScript script, ProgramSource program, boolean dryRun) throws IOException {
        List<FileStep> steps = new ArrayList<>();
        steps.add(writeExecutable(layout.hookScript(), script.content(), "hook script", dryRun));
        for (Map.Entry<String, byte[]> companion : script.companions().entrySet()) {
            steps.add(writeExecutable(layout.hookScript().resolveSibling(companion.getKey()), companion.getValue(),
                    HookScript.role(companion.getKey()), dryRun));
        }
        Path oldGuard = layout.hookScript().resolveSibling(HookScript.OLD_GUARD);
        if (Files.isRegularFile(oldGuard, LinkOption.NOFOLLOW_LINKS)) {
            if (!dryRun) {
                Files.delete(oldGuard);
            }
            steps.add(new FileStep(dryRun ? "would delete" : "deleted", oldGuard, "shell guard of an older install, now part of "
                    + HookScript.SHELL_WRAPPER));
        }
        steps.add(JvmOptions.write(layout.installedJar(), dryRun));
        Path runs = program.location();
        if (program.runtime().isPresent()) {
            steps.add(copyRuntime(program.runtime().get(), layout.installedRuntime(), dryRun));
        }
        if (program.isJar()) {
            steps.add(copyJar(program.location(), layout.installedJar(), "program", dryRun));
            runs = layout.installedJar();
            steps.add(ClassDataArchive.make(runs, javaCommand(layout, program), dryRun));
            Optional<Path> dashboard = DashboardJar.find(Map.of(), program.location());
            if (dashboard.isPresent()) {
                steps.add(copyJar(dashboard.get(), layout.installedDashboardJar(), "dashboard", dryRun));
            }
        } else {
            steps.add(new FileStep("skipped", layout.installedJar(),
                    "not running from a jar; the launcher runs the classes in " + program.location()));
        }
        byte[] launcherText = launcherText(layout, program, runs).getBytes(StandardCharsets.UTF_8);
        Path launcher = layout.launcher();
        if (Files.exists(launcher) && !isBatonsLauncher(launcher)) {
            steps.add(new FileStep("skipped", launcher, "a different program already has this name; left it alone"));
        } else {
            steps.add(writeExecutable(launcher, launcherText, "launcher", dryRun));
        }
        // The hook starts a sidecar with the `baton` beside it, so it needs neither PATH nor ~/.local/bin.
        steps.add(writeExecutable(layout.hookLauncher(), launcherText, "launcher the hook starts the sidecar with", dryRun));
        steps.add(linkHookScript(script, dryRun));
        return steps;
    }

    public List<FileStep> purge(boolean dryRun) throws IOException {
        List<FileStep> steps = new ArrayList<>();
        String verb = dryRun ? "would delete" : "deleted";
        Path link = layout.hookLink();
        boolean linkIsOurs = Files.isSymbolicLink(link)
                ? Files.readSymbolicLink(link).equals(layout.hookScript())
                : Files.isRegularFile(link) && Files.isRegularFile(layout.hookScript())
                        && Files.mismatch(link, layout.hookScript()) == -1;
        List<Path> ours = new ArrayList<>(List.of(layout.hookScript()));
        HookScript.COMPANIONS.forEach(name -> ours.add(layout.hookScript().resolveSibling(name)));
        ours.addAll(List.of(layout.hookScript().resolveSibling(HookScript.OLD_GUARD), layout.hookLauncher(), layout.installedJar(), ClassDataArchive.of(layout.installedJar()),
                JvmOptions.of(layout.installedJar()), layout.installedDashboardJar()));
        if (Files.exists(layout.launcher()) && isBatonsLauncher(layout.launcher())) {
            ours.add(layout.launcher());
        }
        if (linkIsOurs) {
            ours.add(link);
        }
        List<Path> deleted = new ArrayList<>();
        for (Path path : ours) {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                if (!dryRun) {
                    Files.delete(path);
                    deleted.add(path);
                }
                steps.add(new FileStep(verb, path, ""));
            }
        }
        if (Files.isDirectory(layout.installedRuntime(), LinkOption.NOFOLLOW_LINKS)) {
            if (!dryRun) {
                deleteTree(layout.installedRuntime());
                deleted.add(layout.installedRuntime());
            }
            steps.add(new FileStep(verb, layout.installedRuntime(), "Java runtime"));
        }
        for (Path path : deleted) {
            steps.addAll(EmptyParents.remove(path, List.of(layout.home())));
        }
        return steps;
    }

    /**
     * The launcher runs the program as {@code bin/baton} does: with the JVM options file beside the jar (the one
     * source of both launchers' options, see {@link JvmOptions}), the class-data archive when there is one, for
     * every command but {@code serve} (short-lived) the first JIT tier only, and last the user's
     * {@code BATON_JAVA_OPTS}, so they override.
     */
    public static String launcherText(InstallLayout layout, ProgramSource program, Path runs) {
        StringBuilder text = new StringBuilder("#!/usr/bin/env bash\n")
                .append(LAUNCHER_MARK).append(", written by `baton install`; `baton uninstall --purge` removes it.\n");
        String target;
        if (program.isJar()) {
            text.append("jar=").append(doubleQuoted(runs.toString())).append("\n")
                    .append("opts=()\n")
                    .append("if [[ -f \"${jar%.jar}.jvmopts\" ]]; then opts+=(\"@${jar%.jar}.jvmopts\"); fi\n")
                    .append("if [[ -f \"${jar%.jar}.jsa\" ]]; then opts+=(\"-XX:SharedArchiveFile=${jar%.jar}.jsa\"")
                    .append(" -Xlog:cds*=off -Xlog:class+path=off); fi\n");
            target = "-jar \"$jar\"";
        } else {
            String options = doubleQuoted(JvmOptions.of(layout.installedJar()).toString());
            text.append("opts=()\n")
                    .append("if [[ -f ").append(options).append(" ]]; then opts+=(").append(doubleQuoted("@"))
                    .append(options).append("); fi\n");
            target = "-cp " + doubleQuoted(program.classPath()) + " " + ProgramSource.MAIN_CLASS;
        }
        return text.append("if [[ \"${1:-}\" != serve ]]; then opts+=(-XX:TieredStopAtLevel=1); fi\n")
                .append("exec ").append(javaCommandQuoted(layout, program)).append(" \"${opts[@]}\" ${BATON_JAVA_OPTS} ")
                .append(target).append(" \"$@\"\n")
                .toString();
    }

    /** The java the launcher runs: the installed runtime of a release, else JAVA_HOME's when set, else the one on PATH. */
    private static String javaCommand(InstallLayout layout, ProgramSource program) {
        if (program.runtime().isPresent()) {
            return layout.installedRuntime().resolve("bin/java").toString();
        }
        return layout.javaHome().map(home -> home.resolve("bin/java").toString()).orElse("java");
    }

    private static String javaCommandQuoted(InstallLayout layout, ProgramSource program) {
        String java = javaCommand(layout, program);
        return java.equals("java") ? java : doubleQuoted(java);
    }

    /**
     * Copies a release's runtime into place: beside the one there, then swapped for it in two renames, so a sidecar
     * started meanwhile finds a whole runtime (one already running keeps the files it opened). Unchanged when every
     * file has the same size and time as the copy (copies keep the times).
     */
    private FileStep copyRuntime(Path source, Path target, boolean dryRun) throws IOException {
        boolean exists = Files.isDirectory(target);
        if (exists && sameTree(source, target)) {
            return new FileStep("unchanged", target, "Java runtime");
        }
        String verb = exists ? "updated" : "created";
        if (dryRun) {
            return new FileStep("would be " + verb, target, "Java runtime, copied from " + source);
        }
        Files.createDirectories(target.getParent());
        Path fresh = Files.createTempDirectory(target.getParent(), ".runtime.");
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path from : walk.toList()) {
                Path to = fresh.resolve(source.relativize(from).toString());
                if (Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
                }
            }
        } catch (IOException | RuntimeException e) {
            deleteTree(fresh);
            throw e;
        }
        Path old = exists ? Files.createTempDirectory(target.getParent(), ".runtime-old.") : null;
        if (old != null) {
            Files.delete(old);
            Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(fresh, target, StandardCopyOption.ATOMIC_MOVE);
        if (old != null) {
            deleteTree(old);
        }
        return new FileStep(verb, target, "Java runtime, copied from " + source);
    }

    private static boolean sameTree(Path source, Path target) throws IOException {
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path from : walk.filter(path -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)).toList()) {
                Path to = target.resolve(source.relativize(from).toString());
                if (!Files.isRegularFile(to, LinkOption.NOFOLLOW_LINKS) || Files.size(to) != Files.size(from)
                        // A copy keeps the time to the microsecond at best: compared to the millisecond.
                        || Files.getLastModifiedTime(to).toMillis() != Files.getLastModifiedTime(from).toMillis()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private FileStep writeExecutable(Path path, byte[] content, String what, boolean dryRun) throws IOException {
        boolean exists = Files.isRegularFile(path);
        boolean sameContent = exists && Arrays.equals(Files.readAllBytes(path), content);
        boolean executable = exists && Files.getPosixFilePermissions(path).containsAll(EXECUTABLE);
        if (sameContent && executable) {
            return new FileStep("unchanged", path, what);
        }
        String verb = exists ? "updated" : "created";
        if (dryRun) {
            return new FileStep("would be " + verb, path, what);
        }
        if (!sameContent) {
            Files.createDirectories(path.getParent());
            Path temp = Files.createTempFile(path.getParent(), "." + path.getFileName() + ".", ".tmp");
            Files.write(temp, content);
            Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.setPosixFilePermissions(path, EXECUTABLE);
        return new FileStep(verb, path, what);
    }

    private FileStep copyJar(Path source, Path target, String what, boolean dryRun) throws IOException {
        boolean exists = Files.exists(target);
        if (exists && (Files.isSameFile(source, target) || Files.mismatch(source, target) == -1)) {
            return new FileStep("unchanged", target, what);
        }
        String verb = exists ? "updated" : "created";
        if (dryRun) {
            return new FileStep("would be " + verb, target, what + ", copied from " + source);
        }
        Files.createDirectories(target.getParent());
        Path temp = Files.createTempFile(target.getParent(), ".baton.jar.", ".tmp");
        Files.copy(source, temp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return new FileStep(verb, target, what + ", copied from " + source);
    }

    private FileStep linkHookScript(HookScript script, boolean dryRun) throws IOException {
        Path link = layout.hookLink();
        if (Files.exists(link) && !Files.isSymbolicLink(link)) {
            return Arrays.equals(Files.readAllBytes(link), script.content())
                    ? new FileStep("unchanged", link, "copy of the hook script")
                    : new FileStep("skipped", link, "a different file already has this name; left it alone");
        }
        return link(link, layout.hookScript(), "link to the hook script", dryRun);
    }

    /** Makes {@code link} a symbolic link to {@code target}, replacing whatever link it was. */
    private static FileStep link(Path link, Path target, String what, boolean dryRun) throws IOException {
        if (Files.isSymbolicLink(link) && Files.readSymbolicLink(link).equals(target)) {
            return new FileStep("unchanged", link, what);
        }
        if (dryRun) {
            return new FileStep("would be created", link, what);
        }
        Files.createDirectories(link.getParent());
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, target);
        return new FileStep("created", link, what);
    }

    private static boolean isBatonsLauncher(Path launcher) throws IOException {
        return Files.isRegularFile(launcher)
                && new String(Files.readAllBytes(launcher), StandardCharsets.UTF_8).contains(LAUNCHER_MARK);
    }

    /** Quotes for bash double quotes, where $, `, " and \ keep a special meaning. */
    private static String doubleQuoted(String text) {
        return "\"" + text.replaceAll("([\"$`\\\\])", "\\\\$1") + "\"";
    }
}
