package dev.baton.session;

import dev.baton.state.Column;
import dev.baton.state.Row;
import dev.baton.state.RowKind;
import java.util.List;

/** The ended_sessions table (schema version 5): an ended main session's id, kept with the process that ran it. */
final class EndedSessionColumns implements RowKind<String, EndedSession> {

    private static final List<Column> COLUMNS = List.of(
            Column.text("id"), Column.text("agent"), Column.integer("pid"), Column.instant("pid_start_ms"),
            Column.text("key_hash"), Column.instant("last_heard_ms"), Column.instant("ended_ms"));

    @Override
    public String table() {
        return "ended_sessions";
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public String key(EndedSession ended) {
        return ended.id();
    }

    @Override
    public Object[] values(EndedSession e) {
        ProcessIdentity process = e.process();
        return new Object[] {e.id(), e.agent().wireName(), process == null ? null : process.pid(),
            process == null ? null : process.startedAt(), e.keyHash(), e.lastHeard(), e.endedAt()};
    }

    @Override
    public EndedSession read(Row row) {
        return new EndedSession(row.text("id"), SessionColumns.agent(row), SessionColumns.process(row),
                row.text("key_hash"), row.instant("last_heard_ms"), row.instant("ended_ms"));
    }
}
