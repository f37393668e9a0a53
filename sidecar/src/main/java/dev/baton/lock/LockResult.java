package dev.baton.lock;

/** The answer for one file of an acquire: taken (or already ours), or held by {@code holder}. */
public record LockResult(String file, boolean acquired, boolean reentrant, Holder holder) {
}
