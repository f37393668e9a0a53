package dev.baton.lock;

/**
 * The answer for one file of an acquire: taken (or already ours), or held by {@code holder}; {@code sameFileAs} names
 * the held file when {@code file} is another path to it (a hard link, a bind mount).
 */
public record LockResult(String file, boolean acquired, boolean reentrant, Holder holder, String sameFileAs) {

    public LockResult(String file, boolean acquired, boolean reentrant, Holder holder) {
        this(file, acquired, reentrant, holder, null);
    }
}
