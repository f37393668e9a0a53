package dev.baton.state;

import java.time.Instant;
import java.util.Map;

/**
 * One stored row as a store reads it back, by column name; values are of the Java types {@link Column.Type}
 * names, null where the column is. A {@link RowKind} turns it into its record.
 */
public record Row(Map<String, Object> values) {

    public String text(String column) {
        return (String) value(column);
    }

    public Long integer(String column) {
        return (Long) value(column);
    }

    /** An INTEGER column that is never null. */
    public long number(String column) {
        return (Long) value(column);
    }

    public Instant instant(String column) {
        return (Instant) value(column);
    }

    public boolean flag(String column) {
        return Boolean.TRUE.equals(value(column));
    }

    private Object value(String column) {
        if (!values.containsKey(column)) {
            throw new IllegalArgumentException("no column " + column + " in this row: " + values.keySet());
        }
        return values.get(column);
    }
}
