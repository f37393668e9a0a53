package dev.baton.state;

/** One column of a {@link RowKind}: its name in the store and the type of the values it holds. */
public record Column(String name, Type type) {

    /** The value types a column holds; each store maps them to its own column types. */
    public enum Type {
        /** A {@link String}. */
        TEXT,
        /** A {@link Long} or {@link Integer}; read back as a {@link Long}. */
        INTEGER,
        /** A {@link java.time.Instant} to the millisecond. */
        INSTANT,
        /** A {@link Boolean}. */
        FLAG
    }

    public static Column text(String name) {
        return new Column(name, Type.TEXT);
    }

    public static Column integer(String name) {
        return new Column(name, Type.INTEGER);
    }

    public static Column instant(String name) {
        return new Column(name, Type.INSTANT);
    }

    public static Column flag(String name) {
        return new Column(name, Type.FLAG);
    }
}
