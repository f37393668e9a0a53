package dev.baton.installer.layout;

import java.util.Locale;

/** Where an installation lands: the user's own config, the shared project config, or the private project config. */
public enum Scope {
    USER,
    PROJECT,
    LOCAL;

    /** Parses a scope as typed on the command line, with a message that lists the valid values. */
    public static Scope parse(String text) {
        for (Scope scope : values()) {
            if (scope.name().equalsIgnoreCase(text.strip())) {
                return scope;
            }
        }
        throw new IllegalArgumentException(
                "unknown scope '" + text + "': use user, project or local");
    }

    public boolean isProjectBound() {
        return this != USER;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
