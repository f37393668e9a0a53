package dev.baton.git;

/** Git could not answer (not installed, not a repository, too slow); the caller decides what that means for safety. */
public final class GitException extends Exception {

    public GitException(String message) {
        super(message);
    }
}
