package dev.baton.lock;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What it means when a file is changed in another copy of its repository on another branch (a worktree or a clone):
 * the copies of one branch always share one lock. {@code BATON_BRANCHES}, or a {@code branches:} line of the
 * repository's {@code .baton-repository}, names the rule.
 */
public enum BranchRule {
    /** The edit goes ahead, and both sessions are told who else is changing the file where: the default. */
    TELL("tell"),
    /** One edit at a time across every branch, as within one copy. */
    LOCK("lock"),
    /** Other branches are not looked at. */
    OFF("off");

    private final String wireName;

    BranchRule(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static final String SETTING = "BATON_BRANCHES";

    /** The rule {@value #SETTING} names; {@code tell} when it is unset. */
    public static BranchRule fromEnvironment(Map<String, String> env) {
        String value = env.get(SETTING);
        if (value == null || value.isBlank()) {
            return TELL;
        }
        return named(value).orElseThrow(() -> new IllegalArgumentException(
                SETTING + " must be tell, lock or off, not '" + value + "'"));
    }

    /** The rule a setting names; empty for anything else (the caller says what it accepts). */
    public static Optional<BranchRule> named(String value) {
        String name = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        for (BranchRule rule : values()) {
            if (rule.wireName.equals(name)) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }
}
