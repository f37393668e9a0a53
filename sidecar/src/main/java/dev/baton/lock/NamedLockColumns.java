package dev.baton.lock;

import dev.baton.session.ProcessIdentity;
import dev.baton.state.Column;
import dev.baton.state.Row;
import dev.baton.state.RowKind;
import java.util.List;

/** The named_locks table (schema version 1): one row per held name, with the process that holds it. */
final class NamedLockColumns implements RowKind<String, NamedLock> {

    private static final List<Column> COLUMNS = List.of(Column.text("name"), Column.integer("pid"),
            Column.instant("pid_start_ms"), Column.text("host"), Column.instant("acquired_ms"), Column.text("purpose"));

    @Override
    public String table() {
        return "named_locks";
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public String key(NamedLock lock) {
        return lock.name();
    }

    @Override
    public Object[] values(NamedLock lock) {
        return new Object[] {lock.name(), lock.holder().pid(), lock.holder().startedAt(), lock.host(),
            lock.acquiredAt(), lock.purpose()};
    }

    @Override
    public NamedLock read(Row row) {
        return new NamedLock(row.text("name"), new ProcessIdentity(row.number("pid"), row.instant("pid_start_ms")),
                row.text("host"), row.instant("acquired_ms"), row.text("purpose"));
    }
}
