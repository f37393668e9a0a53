package dev.baton.state;

/** Storage failed (disk full, read-only, file deleted); nothing of the failed change was applied. */
public final class StoreException extends RuntimeException {

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
