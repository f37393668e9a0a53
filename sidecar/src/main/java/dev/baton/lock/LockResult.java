package dev.baton.lock;

import java.util.List;

/**
 * The answer for one file of an acquire: taken (or already ours), or held by {@code holder}. {@code sameFileAs} names
 * the held file when {@code file} is another path to it (a hard link, a bind mount); {@code copyOf} is the held file
 * when it is {@code file} in another copy of the repository that shares its lock (the same branch, or every branch
 * locked); {@code alsoChangedIn} are the other copies, on other branches, changing a file just taken.
 */
public record LockResult(String file, boolean acquired, boolean reentrant, Holder holder, String sameFileAs,
                         HeldCopy copyOf, List<HeldCopy> alsoChangedIn) {

    public LockResult(String file, boolean acquired, boolean reentrant, Holder holder) {
        this(file, acquired, reentrant, holder, null, null, List.of());
    }
}
