package dev.baton.version;

import dev.baton.state.Column;
import dev.baton.state.Row;
import dev.baton.state.RowKind;
import java.util.List;

/** The kept_versions table (schema version 7): one row per file, its holder's last kept version. */
final class KeptVersionColumns implements RowKind<String, KeptVersion> {

    private static final List<Column> COLUMNS = List.of(Column.text("file"), Column.text("session_id"),
            Column.text("hash"), Column.integer("size"), Column.integer("mode"), Column.instant("kept_ms"),
            Column.text("changed_by"), Column.instant("changed_ms"));

    @Override
    public String table() {
        return "kept_versions";
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public String key(KeptVersion version) {
        return version.file();
    }

    @Override
    public Object[] values(KeptVersion v) {
        return new Object[] {v.file(), v.sessionId(), v.hash(), v.size(), v.mode(), v.keptAt(), v.changedBy(),
            v.changedAt()};
    }

    @Override
    public KeptVersion read(Row row) {
        return new KeptVersion(row.text("file"), row.text("session_id"), row.text("hash"), row.number("size"),
                (int) row.number("mode"), row.instant("kept_ms"), row.text("changed_by"), row.instant("changed_ms"));
    }
}
