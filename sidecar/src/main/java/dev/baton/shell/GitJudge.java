package dev.baton.shell;

import dev.baton.git.GitException;
import dev.baton.git.WorkTreeState;
import dev.baton.session.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Judges a git command against the repository's state before it runs: a discard, clean, stage, commit or switch is
 * refused when it would reach a file another live session holds, with the files, their holders and what to run
 * instead.
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
    String reason(Session session, GitCommand git, WorkTreeState state, Path cwd, List<ShellDenial.Blocked> blocked) {
        if (blocked.isEmpty()) {
            return null;
        }
        Path base = cwd != null ? cwd : state.root();
        String heldText = blocked.stream().map(b -> ShellDenial.shown(b.file(), base) + " (" + ShellDenial.holderText(b.holder()) + ")")
                .collect(Collectors.joining(", "));
        String what = switch (git.effect()) {
            case DISCARD -> "would throw away uncommitted changes to files other sessions hold";
            case CLEAN -> "would delete untracked files other sessions hold";
            case STAGE -> "would stage files other sessions hold";
            case COMMIT -> "would commit files other sessions staged and hold";
            case COMMIT_ALL -> "would commit files other sessions hold";
            case SWITCH -> "would rewrite files other sessions hold";
            case UNSTAGE -> "would take changes other sessions staged out of the index";
            case INDEX -> "would change the staged copies of files other sessions hold";
            case PLANT -> "would make git run a program of its choosing in every session's git commands in this"
                    + " repository, where other sessions hold files";
            case OTHER -> "";
        };
        StringBuilder reason = new StringBuilder("`").append(ShellDenial.shorten(git.part())).append("` ").append(what)
                .append(": ").append(heldText).append('.');
        if (git.effect() == GitCommand.Effect.STAGE || git.effect() == GitCommand.Effect.COMMIT
                || git.effect() == GitCommand.Effect.COMMIT_ALL) {
            Set<String> heldFiles = blocked.stream().map(ShellDenial.Blocked::file).collect(Collectors.toSet());
            Set<String> mine = held.own(session);
            List<String> own = state.dirty().stream()
                    .filter(path -> { String c = HeldByOthers.canonical(path); return c != null && mine.contains(c) && !heldFiles.contains(c); })
                    .sorted().map(path -> ShellDenial.quoted(ShellDenial.shown(path.toString(), base))).toList();
            if (own.isEmpty()) {
                reason.append(" None of the changed files is yours to commit.");
            } else if (git.effect() == GitCommand.Effect.STAGE) {
                reason.append(" Stage only your own files instead: `git add ").append(String.join(" ", own)).append("`.");
            } else {
                reason.append(" Commit only your own files instead: `git commit -m \"…\" -- ")
                        .append(String.join(" ", own)).append("`.");
            }
        } else if (git.effect() == GitCommand.Effect.PLANT) {
            reason.append(" Ask the person supervising the agents to set it, or set it once the other sessions are done.");
        } else {
            reason.append(" Name your own files instead (e.g. `git restore -- FILE`), or ask the holders to commit first.");
        }
        return reason.toString();
    }
}
