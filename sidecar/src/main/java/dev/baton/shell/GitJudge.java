package dev.baton.shell;

import dev.baton.git.GitException;
import dev.baton.git.RepoRoot;
import dev.baton.git.WorkTreeState;
import dev.baton.session.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Judges git before a command runs: a discard, clean, stage, commit or switch is refused when it would reach a file
 * another live session holds, with the files, their holders and what to run instead; a write that plants code git
 * runs (a hook, its configuration, attributes) is refused while other sessions hold files in the repository.
 */
final class GitJudge {

    private final HeldByOthers held;
    private final Duration gitTimeout;

    GitJudge(HeldByOthers held, Duration gitTimeout) {
        this.held = held;
        this.gitTimeout = gitTimeout;
    }

    /** The files the command would reach, by canonical path. */
    Map<String, Path> touched(GitCommand git, WorkTreeState state) throws GitException {
        Set<Path> touched = new LinkedHashSet<>();
        switch (git.effect()) {
            case DISCARD -> {
                touched.addAll(state.staged());
                touched.addAll(state.unstaged());
                if (git.untracked()) {
                    touched.addAll(state.untracked());
                }
            }
            case CLEAN -> touched.addAll(state.untracked());
            case STAGE -> touched.addAll(state.dirty());
            case COMMIT -> touched.addAll(state.staged());
            case COMMIT_ALL -> {
                touched.addAll(state.staged());
                touched.addAll(state.unstaged());
            }
            case SWITCH -> touched.addAll(WorkTreeState.filesBetween(state.root(), "HEAD", git.ref(), gitTimeout));
            case UNSTAGE -> touched.addAll(state.staged());
            case PLANT -> {
                Map<String, Path> inRepo = new TreeMap<>();
                for (String file : held.all()) {
                    if (Path.of(file).startsWith(state.root())) {
                        inRepo.put(file, Path.of(file));
                    }
                }
                return inRepo;
            }
            case INDEX -> {
                // every file under its paths, changed or not: the held files among them are asked about below
                Map<String, Path> all = new TreeMap<>();
                for (String file : held.all()) {
                    Path path = Path.of(file);
                    if (path.startsWith(state.root()) && git.paths().stream().anyMatch(path::startsWith)
                            || path.startsWith(state.root()) && git.paths().isEmpty()) {
                        all.put(file, path);
                    }
                }
                return all;
            }
            case OTHER -> {
            }
        }
        if (git.effect() != GitCommand.Effect.COMMIT && !git.paths().isEmpty()) {
            touched.removeIf(path -> git.paths().stream().noneMatch(path::startsWith));
        }
        Map<String, Path> byCanonical = new TreeMap<>();
        touched.forEach(path -> Optional.ofNullable(HeldByOthers.canonical(path)).ifPresent(c -> byCanonical.put(c, path)));
        return byCanonical;
    }

    /** Why the git command must not run now ({@code blocked}: the held files it reaches), or null when it may. */
    String reason(Session session, GitCommand git, WorkTreeState state, Path cwd, List<BlockedWrite> blocked) {
        if (blocked.isEmpty()) {
            return null;
        }
        Path base = cwd != null ? cwd : state.root();
        List<String> own = List.of();
        if (git.effect() == GitCommand.Effect.STAGE || git.effect() == GitCommand.Effect.COMMIT
                || git.effect() == GitCommand.Effect.COMMIT_ALL) {
            Set<String> heldFiles = blocked.stream().map(BlockedWrite::file).collect(Collectors.toSet());
            Set<String> mine = held.own(session);
            own = state.dirty().stream()
                    .filter(path -> { String c = HeldByOthers.canonical(path); return c != null && mine.contains(c) && !heldFiles.contains(c); })
                    .sorted().map(path -> ShellWording.quoted(ShellWording.shown(path.toString(), base))).toList();
        }
        return ShellWording.gitReason(git, blocked, base, own);
    }

    /**
     * Writes that plant code git runs for everyone in a repository (a hook, its configuration, attributes naming
     * filters or drivers), refused while other sessions hold files there: another session's git command would run it.
     */
    List<String> planted(Session session, List<WriteTarget> writes) {
        List<String> reasons = new ArrayList<>();
        for (WriteTarget write : writes) {
            Path path = write.path();
            Optional<Path> repo = RepoRoot.of(path.getParent() == null ? path : path.getParent())
                    .map(root -> root.getFileName() != null && root.getFileName().toString().equals(".git") ? root.getParent() : root);
            if (repo.isEmpty()) {
                continue;
            }
            Path git = repo.get().resolve(".git");
            boolean plants = path.startsWith(git.resolve("hooks")) || path.equals(git.resolve("config"))
                    || path.equals(git.resolve("info/attributes")) || path.getFileName() != null
                    && path.getFileName().toString().equals(".gitattributes") || write.tree() && git.startsWith(path);
            if (!plants) {
                continue;
            }
            List<BlockedWrite> inRepo = held.among(session, held.all().stream()
                    .filter(file -> Path.of(file).startsWith(repo.get())).collect(Collectors.toSet()), write.part());
            if (!inRepo.isEmpty()) {
                reasons.add(ShellWording.planted(write.part(), path, repo.get(), inRepo));
            }
        }
        return reasons;
    }
}
