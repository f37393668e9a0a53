package dev.baton.hook;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One agent's names for the events Baton acts on, each dialect's own; a name is matched whatever its case (an
 * agent's config keys and its payloads do not always agree), and any other name is {@link EventKind#OTHER}.
 */
public final class EventNames {

    private final Map<String, EventKind> kinds;

    public EventNames(Map<String, EventKind> kinds) {
        Map<String, EventKind> lower = new HashMap<>();
        kinds.forEach((name, kind) -> lower.put(name.toLowerCase(Locale.ROOT), kind));
        this.kinds = Map.copyOf(lower);
    }

    public EventKind kindOf(String name) {
        return name == null ? EventKind.OTHER : kinds.getOrDefault(name.toLowerCase(Locale.ROOT), EventKind.OTHER);
    }
}
