package dev.baton.git;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which held files carry changes git has not committed: what a supervisor must know before handing a file on, since
 * a released file keeps its holder's uncommitted work for the next holder. One bounded {@code git status} per
 * repository, asking about the named files only.
 */
public final class UncommittedChanges {

    private final GitStatus git;

    public UncommittedChanges(Duration timeout) {
        this.git = new GitStatus(timeout);
    }

    /**
     * For each of {@code files} (absolute) in a repository: true when it differs from HEAD or is untracked. A file
     * outside any repository, or of a repository git could not answer for in time, is left out: nobody can say.
     */
    public Map<String, Boolean> of(Collection<String> files) {
        Map<Path, List<String>> byRepo = new LinkedHashMap<>();
        for (String file : files) {
            Optional<Path> root = RepoRoot.of(Path.of(file));
            root.ifPresent(r -> byRepo.computeIfAbsent(r, key -> new ArrayList<>()).add(file));
        }
        Map<String, Boolean> uncommitted = new LinkedHashMap<>();
        byRepo.forEach((root, repoFiles) -> {
            try {
                Set<Path> changed = git.changedAmong(root, repoFiles.stream().map(Path::of).toList());
                repoFiles.forEach(file -> uncommitted.put(file, changed.contains(Path.of(file).normalize())));
            } catch (GitException unknown) {
                // a repository git cannot read in time says nothing of its files
            }
        });
        return uncommitted;
    }
}
