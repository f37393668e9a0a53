package dev.baton.git;

import dev.baton.lock.BranchRule;
import dev.baton.lock.FileCopy;
import dev.baton.lock.RepositoryCopies;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names a file among the copies of its repository on this machine: the identity every clone shares
 * ({@link RepoIdentity}: {@code .baton-repository}, else the origin), or, for a repository with neither, its common git
 * directory, which all its worktrees share. A working tree's identity is asked of git once and kept; its branch is read
 * from HEAD each time, without git, since an agent may switch branches.
 */
public final class WorkTreeCopies implements RepositoryCopies {

    /** The line of {@code .baton-repository} that names the repository's rule for other branches. */
    static final String RULE_LINE = "branches:";

    private static final Duration GIT_BOUND = Duration.ofSeconds(3);

    private final BranchRule defaultRule;
    private final boolean ruleFixed;
    private final Map<Path, Named> named = new ConcurrentHashMap<>();

    private record Named(String repository, String rootCommit) {
    }

    /** @param defaultRule the rule of a repository that names none of its own */
    public WorkTreeCopies(BranchRule defaultRule) {
        this(defaultRule, false);
    }

    private WorkTreeCopies(BranchRule defaultRule, boolean ruleFixed) {
        this.defaultRule = defaultRule;
        this.ruleFixed = ruleFixed;
    }

    /**
     * Every branch shares one lock, whatever a repository says: a team whose database keeps one claim per file of a
     * repository (not per branch) cannot let two copies of this machine hold it at once.
     */
    public static WorkTreeCopies everyBranchOneLock() {
        return new WorkTreeCopies(BranchRule.LOCK, true);
    }

    @Override
    public Optional<FileCopy> of(String file) {
        Path path = Path.of(file);
        Optional<Path> root = RepoRoot.of(path);
        if (root.isEmpty() || root.get().equals(path)) {
            return Optional.empty();
        }
        Optional<Named> repository = repository(root.get());
        if (repository.isEmpty()) {
            return Optional.empty();
        }
        String relative = Normalizer.normalize(root.get().relativize(path).toString(), Normalizer.Form.NFC);
        return Optional.of(new FileCopy(repository.get().repository(), repository.get().rootCommit(), relative,
                root.get().toString(), branchOf(root.get()).orElse(null), rule(root.get())));
    }

    @Override
    public Optional<String> branchOf(String worktree) {
        return branchOf(Path.of(worktree));
    }

    @Override
    public boolean exists(String worktree) {
        return Files.exists(Path.of(worktree).resolve(".git"));
    }

    private Optional<Named> repository(Path root) {
        Named known = named.get(root);
        if (known != null) {
            return Optional.of(known);
        }
        try {
            Optional<RepoIdentity> identity = RepoIdentity.of(root, GIT_BOUND);
            Named found;
            if (identity.isPresent()) {
                found = new Named(identity.get().id(), identity.get().rootCommit());
            } else {
                Optional<Path> gitDir = GitDir.of(root);
                if (gitDir.isEmpty()) {
                    return Optional.empty();
                }
                found = new Named("gitdir:" + GitDir.common(gitDir.get()).toRealPath(), null);
            }
            named.put(root, found);
            return Optional.of(found);
        } catch (GitException | IOException e) {
            return Optional.empty(); // not known now: asked again at the next first take
        }
    }

    /** The branch HEAD names, or the commit of a detached HEAD; empty before a first commit's branch is readable. */
    private static Optional<String> branchOf(Path root) {
        Optional<Path> gitDir = GitDir.of(root);
        if (gitDir.isEmpty()) {
            return Optional.empty();
        }
        try {
            String head = Files.readString(gitDir.get().resolve("HEAD"), StandardCharsets.UTF_8).strip();
            if (head.startsWith("ref:")) {
                String ref = head.substring("ref:".length()).strip();
                return Optional.of(ref.startsWith("refs/heads/") ? ref.substring("refs/heads/".length()) : ref);
            }
            return head.isEmpty() ? Optional.empty() : Optional.of(head);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The repository's own rule ({@code branches: lock} in {@code .baton-repository}), else the default. */
    private BranchRule rule(Path root) {
        if (ruleFixed) {
            return defaultRule;
        }
        return RepoIdentity.settingOf(root, RULE_LINE).flatMap(BranchRule::named).orElse(defaultRule);
    }
}
