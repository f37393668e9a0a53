package dev.baton.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a working tree keeps its git data, and what its HEAD names, read from the files themselves: the cheap look
 * that tells whether HEAD moved without running git. Read by hand because a git library would be a large dependency
 * for two small files, and running git costs a process.
 */
final class GitDir {

    private GitDir() {
    }

    /** The git directory of a working tree: its {@code .git} directory, or where a {@code .git} file points. */
    static Optional<Path> of(Path root) {
        Path dotGit = root.resolve(".git");
        if (Files.isDirectory(dotGit)) {
            return Optional.of(dotGit);
        }
        try {
            String text = Files.readString(dotGit, StandardCharsets.UTF_8).strip();
            if (text.startsWith("gitdir:")) {
                Path dir = root.resolve(text.substring("gitdir:".length()).strip()).normalize();
                return Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
            }
        } catch (IOException e) {
            // no .git here
        }
        return Optional.empty();
    }

    /**
     * What HEAD names, as an identity that changes when a commit is made or HEAD moves: a detached HEAD's commit, or
     * the branch it names with the identity of the branch's ref file (or of packed-refs, where it has none);
     * "no-commit" for a branch with no commit yet.
     */
    static String head(Path gitDir) {
        try {
            String head = Files.readString(gitDir.resolve("HEAD"), StandardCharsets.UTF_8).strip();
            if (!head.startsWith("ref:")) {
                return head;
            }
            String ref = head.substring("ref:".length()).strip();
            Path common = commonDir(gitDir);
            Path loose = common.resolve(ref);
            if (Files.isRegularFile(loose)) {
                return ref + "@" + Files.readString(loose, StandardCharsets.UTF_8).strip() + "/" + HeldFileState.identity(loose);
            }
            Path packed = common.resolve("packed-refs");
            return Files.isRegularFile(packed) ? ref + "@packed/" + HeldFileState.identity(packed) : "no-commit";
        } catch (IOException e) {
            return "unreadable";
        }
    }

    /** The repository's common git directory ({@code commondir}, for a linked worktree), or {@code gitDir} itself. */
    static Path common(Path gitDir) {
        try {
            return commonDir(gitDir);
        } catch (IOException e) {
            return gitDir;
        }
    }

    /** A linked worktree's git directory keeps its refs in the main repository's ({@code commondir}). */
    private static Path commonDir(Path gitDir) throws IOException {
        Path pointer = gitDir.resolve("commondir");
        if (Files.isRegularFile(pointer)) {
            return gitDir.resolve(Files.readString(pointer, StandardCharsets.UTF_8).strip()).normalize();
        }
        return gitDir;
    }
}
