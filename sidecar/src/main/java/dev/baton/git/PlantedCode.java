package dev.baton.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The files and directories whose content decides what git or a login shell runs in whichever process runs them
 * next: a repository's hooks, its configuration (core.fsmonitor, filters, aliases, core.hooksPath), its attributes,
 * and the user's git configuration and shell start-up files. Written by one session while another holds files,
 * they would run that session's git or shell as code the first one chose.
 */
public final class PlantedCode {

    /** The user's files git and shells read on start, relative to the home directory. */
    static final List<String> HOME_FILES = List.of(".gitconfig", ".config/git/config", ".config/git/attributes",
            ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile",
            ".zlogin", ".zlogout");

    private PlantedCode() {
    }

    /** What of {@code root}'s repository decides what git runs, as far as it exists: directories and files. */
    public static List<Path> ofRepository(Path root) {
        Set<Path> paths = new LinkedHashSet<>();
        Optional<Path> gitDir = GitDir.of(root);
        if (gitDir.isPresent()) {
            Path common = GitDir.common(gitDir.get());
            paths.add(common.resolve("hooks"));
            paths.add(common.resolve("config"));
            paths.add(common.resolve("info"));
            paths.add(gitDir.get().resolve("config.worktree"));
            hooksPath(common.resolve("config"), root).ifPresent(paths::add);
        }
        paths.add(root.resolve(".gitattributes"));
        return paths.stream().filter(Files::exists).toList();
    }

    /** The user's git configuration and shell start-up files under {@code home} that exist. */
    public static List<Path> ofHome(Path home) {
        List<Path> paths = new ArrayList<>();
        for (String name : HOME_FILES) {
            Path path = home.resolve(name);
            if (Files.isRegularFile(path)) {
                paths.add(path);
            }
        }
        return paths;
    }

    /**
     * What {@code file} is, when writing it plants code: "a git hook", "the repository's git configuration", …; empty
     * for an ordinary file. {@code repository} is the working tree it belongs to, {@code home} the user's.
     */
    public static Optional<String> kindOf(Path file, Optional<Path> repository, Path home) {
        for (String name : HOME_FILES) {
            if (file.equals(home.resolve(name))) {
                return Optional.of(name.contains("git") ? "your git configuration (~/" + name + ")"
                        : "a shell start-up file (~/" + name + ")");
            }
        }
        if (repository.isEmpty()) {
            return Optional.empty();
        }
        Path root = repository.get();
        if (file.equals(root.resolve(".gitattributes"))) {
            return Optional.of("the repository's attributes (.gitattributes: filters and diff drivers git runs)");
        }
        Optional<Path> gitDir = GitDir.of(root);
        if (gitDir.isEmpty()) {
            return Optional.empty();
        }
        Path common = GitDir.common(gitDir.get());
        if (file.startsWith(common.resolve("hooks"))
                || hooksPath(common.resolve("config"), root).filter(file::startsWith).isPresent()) {
            return Optional.of("a git hook (git runs it in every session's commands)");
        }
        if (file.equals(common.resolve("config")) || file.equals(gitDir.get().resolve("config.worktree"))) {
            return Optional.of("the repository's git configuration (core.fsmonitor, filters and aliases run programs)");
        }
        if (file.startsWith(common.resolve("info"))) {
            return Optional.of("the repository's git attributes and excludes (.git/info)");
        }
        return Optional.empty();
    }

    /**
     * The directory {@code core.hooksPath} names in a configuration file, read as text: a cheap look, so that it is
     * protected too (a value git would read differently, an include, is still covered by the configuration file
     * itself being read-only).
     */
    private static Optional<Path> hooksPath(Path config, Path root) {
        try {
            for (String line : Files.readAllLines(config, StandardCharsets.UTF_8)) {
                String trimmed = line.strip();
                if (trimmed.toLowerCase(Locale.ROOT).startsWith("hookspath")) {
                    int equals = trimmed.indexOf('=');
                    if (equals > 0) {
                        String value = trimmed.substring(equals + 1).strip().replaceAll("^\"|\"$", "");
                        if (!value.isEmpty()) {
                            Path path = value.startsWith("~/") ? Path.of(System.getProperty("user.home"), value.substring(2))
                                    : root.resolve(value).normalize();
                            return Optional.of(path);
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // no configuration to read
        }
        return Optional.empty();
    }
}
