package dev.baton.hook;

import dev.baton.git.RepoRoot;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which files a hook edit locks. Never locked: git's own files, dependencies, lockfiles, build output,
 * databases, and files outside any git repository (unless enabled) — locking them would only block agents
 * on files no one edits by hand.
 *
 * <p>Globs are relative to the repository root. A glob without a slash matches a file name at any depth
 * ({@code *.lock}); a glob with one matches at any directory level ({@code target/**} covers
 * {@code module/target/x}, as in a multi-module build) unless it starts with {@code /}, which anchors it to the
 * root.
 */
public final class LockScope {

    /**
     * The lockfiles package managers write (never by hand), at any depth: the one list, documented in the README
     * ("Files Baton never locks"), which a test keeps in step with it. Any other {@code *.lock} is skipped too.
     */
    public static final List<String> LOCKFILES = List.of(
            "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock",
            "deno.lock", "poetry.lock", "Pipfile.lock", "uv.lock", "pdm.lock", "Gemfile.lock", "go.sum",
            "composer.lock", "Cargo.lock", "mix.lock", "pubspec.lock", "Podfile.lock", "Package.resolved",
            "packages.lock.json", "gradle.lockfile", "flake.lock");

    public static final List<String> DEFAULT_IGNORES = defaultIgnores();

    private static List<String> defaultIgnores() {
        List<String> ignores = new ArrayList<>(List.of(".git/**", "node_modules/**", "*.lock", "target/**", "build/**",
                "dist/**", "*.db"));
        ignores.addAll(LOCKFILES);
        return List.copyOf(ignores);
    }

    private final List<Glob> ignores;
    private final boolean lockOutsideRepos;

    public LockScope(List<String> extraIgnores, boolean lockOutsideRepos) {
        List<Glob> globs = new ArrayList<>();
        DEFAULT_IGNORES.forEach(pattern -> globs.add(Glob.of(pattern)));
        extraIgnores.stream().map(String::strip).filter(p -> !p.isEmpty()).forEach(p -> globs.add(Glob.of(p)));
        this.ignores = List.copyOf(globs);
        this.lockOutsideRepos = lockOutsideRepos;
    }

    public static LockScope defaults() {
        return new LockScope(List.of(), false);
    }

    /**
     * {@code BATON_IGNORE}: extra globs, colon-separated; {@code BATON_LOCK_OUTSIDE_REPOS=1}: lock files that
     * belong to no git repository too.
     */
    public static LockScope fromEnvironment(Map<String, String> env) {
        String extra = env.getOrDefault("BATON_IGNORE", "");
        return new LockScope(extra.isBlank() ? List.of() : List.of(extra.split(":")),
                "1".equals(env.get("BATON_LOCK_OUTSIDE_REPOS")));
    }

    /** @param file a canonical absolute path */
    public boolean locks(String file) {
        Path path = Path.of(file);
        Optional<Path> root = RepoRoot.of(path);
        if (root.isEmpty() && !lockOutsideRepos) {
            return false;
        }
        Path relative = root.map(r -> r.relativize(path)).orElse(path.getRoot() == null ? path : path.getRoot().relativize(path));
        return ignores.stream().noneMatch(glob -> glob.matches(relative));
    }

    /**
     * One compiled pattern and where it may match. A file-name glob that is a plain name ({@code go.sum}) or
     * {@code *.EXT} is compared as a string: most of the defaults are, and every hook call checks them all.
     */
    private record Glob(PathMatcher matcher, boolean nameOnly, boolean anchored, String name, String suffix) {

        private static final String GLOB_SYNTAX = "*?[]{}\\";

        static Glob of(String pattern) {
            boolean anchored = pattern.startsWith("/");
            String body = anchored ? pattern.substring(1) : pattern;
            boolean nameOnly = !body.contains("/");
            String name = null;
            String suffix = null;
            if (nameOnly && !anchored) {
                if (plain(body)) {
                    name = body;
                } else if (body.startsWith("*") && plain(body.substring(1))) {
                    suffix = body.substring(1);
                }
            }
            return new Glob(FileSystems.getDefault().getPathMatcher("glob:" + body), nameOnly, anchored, name, suffix);
        }

        private static boolean plain(String text) {
            return text.chars().noneMatch(c -> GLOB_SYNTAX.indexOf(c) >= 0);
        }

        boolean matches(Path relative) {
            if (nameOnly && !anchored) {
                Path fileName = relative.getFileName();
                if (fileName == null) {
                    return false;
                }
                if (name != null) {
                    return name.equals(fileName.toString());
                }
                if (suffix != null) {
                    return fileName.toString().endsWith(suffix);
                }
                return matcher.matches(fileName);
            }
            if (anchored) {
                return matcher.matches(relative);
            }
            for (int start = 0; start < relative.getNameCount(); start++) {
                if (matcher.matches(relative.subpath(start, relative.getNameCount()))) {
                    return true;
                }
            }
            return false;
        }
    }
}
