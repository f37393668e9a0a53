package dev.baton.lock;

/** The answer to a named-lock acquire: taken, or who has it and whether that process is alive. */
public record NamedLockOutcome(boolean acquired, NamedLock lock, String holderAlive) {
}
