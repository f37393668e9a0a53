package dev.baton.lock;

import dev.baton.state.Column;
import dev.baton.state.Row;
import dev.baton.state.RowKind;
import java.util.List;

/** The locks table (schema version 1): one row per held file, grouped by the session that holds it. */
final class FileLockColumns implements RowKind<String, FileLock> {

    private static final List<Column> COLUMNS = List.of(Column.text("file"), Column.text("session_id"),
            Column.instant("acquired_ms"), Column.instant("last_edit_ms"), Column.flag("edit_in_flight"));

    @Override
    public String table() {
        return "locks";
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public String key(FileLock lock) {
        return lock.file();
    }

    @Override
    public Object[] values(FileLock lock) {
        return new Object[] {lock.file(), lock.sessionId(), lock.acquiredAt(), lock.lastEditAt(), lock.editInFlight()};
    }

    @Override
    public FileLock read(Row row) {
        return new FileLock(row.text("file"), row.text("session_id"), row.instant("acquired_ms"),
                row.instant("last_edit_ms"), row.flag("edit_in_flight"));
    }

    /** A session's files are asked for on every request that releases or lists them. */
    @Override
    public Object group(FileLock lock) {
        return lock.sessionId();
    }
}
