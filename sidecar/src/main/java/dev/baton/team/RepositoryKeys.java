package dev.baton.team;

import dev.baton.git.RepoIdentity;
import dev.baton.git.RepoRoot;
import java.nio.file.Path;
import java.text.Normalizer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns a file of this machine into the name every machine of the team gives it: its repository's shared identity
 * and its path from the working tree's root, '/'-separated, Unicode in NFC (macOS hands out NFD names). A file outside
 * any working tree, or in one with neither an origin nor an identity file, is this machine's alone: it has no key.
 * With {@code perBranch} the branch checked out is part of the repository's name, so a lock covers one branch.
 */
final class RepositoryKeys {

    private static final Duration GIT_BOUND = Duration.ofSeconds(3);

    private final boolean perBranch;
    private final Map<Path, Optional<RepoIdentity>> identities = new ConcurrentHashMap<>();

    RepositoryKeys(boolean perBranch) {
        this.perBranch = perBranch;
    }

    Optional<SharedPath> of(String file) {
        Path path = Path.of(file);
        Optional<Path> root = RepoRoot.of(path);
        if (root.isEmpty() || root.get().equals(path)) {
            return Optional.empty();
        }
        Optional<RepoIdentity> identity = identities.computeIfAbsent(root.get(), dir -> RepoIdentity.of(dir, GIT_BOUND));
        if (identity.isEmpty()) {
            return Optional.empty();
        }
        String repository = identity.get().id();
        if (perBranch) {
            Optional<String> branch = RepoIdentity.branch(root.get(), GIT_BOUND);
            if (branch.isEmpty()) {
                return Optional.empty();
            }
            repository = repository + "#" + branch.get();
        }
        String relative = root.get().relativize(path).toString().replace('\\', '/');
        return Optional.of(new SharedPath(repository, Normalizer.normalize(relative, Normalizer.Form.NFC)));
    }

    /** The identity of the working tree at {@code root}, as {@link #of} uses it. */
    Optional<RepoIdentity> identityOf(Path root) {
        return identities.computeIfAbsent(root, dir -> RepoIdentity.of(dir, GIT_BOUND));
    }
}
