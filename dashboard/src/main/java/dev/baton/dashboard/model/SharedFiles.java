package dev.baton.dashboard.model;

import dev.baton.dashboard.protocol.LockInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The held files of a repository that are held in more than one of its copies (worktrees or clones): the same
 * repository path changed in two working trees, which will meet at merge time.
 */
public final class SharedFiles {

    private static final Comparator<LockInfo> BY_COPY = Comparator
            .comparing((LockInfo lock) -> lock.copy().worktree(), Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(LockInfo::holderSession, Comparator.nullsLast(Comparator.naturalOrder()));

    /** The locks of each repository file held in two copies or more, each list ordered by worktree. */
    private final Map<String, List<LockInfo>> byFile;

    private SharedFiles(Map<String, List<LockInfo>> byFile) {
        this.byFile = byFile;
    }

    public static SharedFiles of(Collection<LockInfo> locks) {
        Map<String, List<LockInfo>> byFile = new LinkedHashMap<>();
        for (LockInfo lock : locks) {
            String key = key(lock);
            if (key != null) {
                byFile.computeIfAbsent(key, k -> new ArrayList<>()).add(lock);
            }
        }
        byFile.values().removeIf(group -> group.stream().map(lock -> lock.copy().worktree()).distinct().count() < 2);
        byFile.replaceAll((key, group) -> group.stream().sorted(BY_COPY).toList());
        return new SharedFiles(Collections.unmodifiableMap(byFile));
    }

    /** The locks on {@code lock}'s repository file in the other copies of its repository; empty when there are none. */
    public List<LockInfo> elsewhere(LockInfo lock) {
        String key = key(lock);
        List<LockInfo> group = key == null ? null : byFile.get(key);
        if (group == null) {
            return List.of();
        }
        return group.stream().filter(other -> !Objects.equals(other.copy().worktree(), lock.copy().worktree())).toList();
    }

    /** Every repository file held in two copies or more, with its locks ordered by worktree. */
    public Collection<List<LockInfo>> groups() {
        return byFile.values();
    }

    private static String key(LockInfo lock) {
        LockInfo.Copy copy = lock.copy();
        if (copy == null || copy.repository() == null || copy.path() == null) {
            return null;
        }
        return copy.repository() + '\u0000' + copy.path();
    }
}
