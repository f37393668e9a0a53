package dev.baton.store;

import dev.baton.state.Column;
import dev.baton.state.Row;
import dev.baton.state.RowKind;
import dev.baton.state.RowWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Any {@link RowKind}'s rows in SQLite: a table named for the kind with a column for each of its columns,
 * a row upserted with {@code INSERT OR REPLACE} and deleted by its key. Instants are epoch milliseconds in
 * INTEGER columns and flags 0 or 1, as the schema's tables have always held them.
 */
final class SqliteRows {

    /** One kind's statements, prepared at its first write: preparing them per commit was a tenth of its cost. */
    private record Statements(PreparedStatement upsert, PreparedStatement delete) {
    }

    private final Connection connection;
    private final Map<RowKind<?, ?>, Statements> statements = new IdentityHashMap<>();

    SqliteRows(Connection connection) {
        this.connection = connection;
    }

    <K, R> List<R> load(RowKind<K, R> kind) throws SQLException {
        List<Column> columns = kind.columns();
        List<R> rows = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT " + names(columns) + " FROM " + kind.table());
             ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                Map<String, Object> values = new HashMap<>();
                for (int i = 0; i < columns.size(); i++) {
                    values.put(columns.get(i).name(), read(rs, i + 1, columns.get(i).type()));
                }
                rows.add(kind.read(new Row(values)));
            }
        }
        return rows;
    }

    void write(RowWrite write) throws SQLException {
        RowKind<?, ?> kind = write.kind();
        Statements prepared = statements.get(kind);
        if (prepared == null) {
            prepared = prepare(kind);
            statements.put(kind, prepared);
        }
        Object[] values = write.values();
        List<Column> columns = kind.columns();
        boolean upsert = write instanceof RowWrite.Upsert<?>;
        PreparedStatement statement = upsert ? prepared.upsert() : prepared.delete();
        int bound = upsert ? columns.size() : kind.keyColumns();
        for (int i = 0; i < bound; i++) {
            bind(statement, i + 1, columns.get(i).type(), values[i]);
        }
        statement.executeUpdate();
    }

    private Statements prepare(RowKind<?, ?> kind) throws SQLException {
        List<Column> columns = kind.columns();
        String marks = columns.stream().map(column -> "?").collect(Collectors.joining(", "));
        String key = columns.subList(0, kind.keyColumns()).stream().map(column -> column.name() + " = ?")
                .collect(Collectors.joining(" AND "));
        return new Statements(
                connection.prepareStatement("INSERT OR REPLACE INTO " + kind.table() + " (" + names(columns)
                        + ") VALUES (" + marks + ")"),
                connection.prepareStatement("DELETE FROM " + kind.table() + " WHERE " + key));
    }

    private static String names(List<Column> columns) {
        return columns.stream().map(Column::name).collect(Collectors.joining(", "));
    }

    private static void bind(PreparedStatement statement, int index, Column.Type type, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, type == Column.Type.TEXT ? Types.VARCHAR : Types.INTEGER);
            return;
        }
        switch (type) {
            case TEXT -> statement.setString(index, (String) value);
            case INTEGER -> statement.setLong(index, ((Number) value).longValue());
            case INSTANT -> statement.setLong(index, ((Instant) value).toEpochMilli());
            case FLAG -> statement.setInt(index, (Boolean) value ? 1 : 0);
        }
    }

    private static Object read(ResultSet rs, int index, Column.Type type) throws SQLException {
        return switch (type) {
            case TEXT -> rs.getString(index);
            case INTEGER -> {
                long value = rs.getLong(index);
                yield rs.wasNull() ? null : value;
            }
            case INSTANT -> {
                long millis = rs.getLong(index);
                yield rs.wasNull() ? null : Instant.ofEpochMilli(millis);
            }
            case FLAG -> rs.getInt(index) != 0;
        };
    }
}
