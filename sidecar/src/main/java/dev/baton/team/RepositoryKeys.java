package dev.baton.team;

import dev.baton.git.GitException;
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

    /** The file's key; empty for a file of this machine alone, and while git cannot name its repository. */
    Optional<SharedPath> of(String file) {
        try {
            return named(file);
        } catch (GitException e) {
            return Optional.empty();
        }
    }

    /**
     * The file's key, or a {@link GitException} when git could not name its repository in time: the claim of such a
     * file is refused for now rather than taken as this machine's alone, which another machine would not see. A
     * failed lookup is not remembered; the next one asks git again.
     */
    Optional<SharedPath> named(String file) throws GitException {
        Path path = Path.of(file);
        Optional<Path> root = RepoRoot.of(path);
        if (root.isEmpty() || root.get().equals(path)) {
            return Optional.empty();
        }
        Optional<RepoIdentity> identity = identity(root.get());
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

    /** The identity of the working tree at {@code root}, as {@link #of} uses it; empty while git cannot say. */
    Optional<RepoIdentity> identityOf(Path root) {
        try {
            return identity(root);
        } catch (GitException e) {
            return Optional.empty();
        }
    }

    private Optional<RepoIdentity> identity(Path root) throws GitException {
        Optional<RepoIdentity> known = identities.get(root);
        if (known != null) {
            return known;
        }
        Optional<RepoIdentity> found = RepoIdentity.of(root, GIT_BOUND);
        identities.put(root, found);
        return found;
    }
}
