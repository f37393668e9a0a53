package dev.baton.session;

import dev.baton.state.Column;
import dev.baton.state.Row;
import dev.baton.state.RowKind;
import java.time.Instant;
import java.util.List;

/** The sessions table: one row per live session, with its plan; its columns are those of schema version 1. */
final class SessionColumns implements RowKind<String, Session> {

    private static final List<Column> COLUMNS = List.of(
            Column.text("id"), Column.text("agent"), Column.integer("pid"), Column.instant("pid_start_ms"),
            Column.text("host"), Column.text("cwd"), Column.text("repo_root"), Column.instant("started_ms"),
            Column.instant("heartbeat_ms"), Column.text("name"), Column.text("parent_id"), Column.text("key_hash"),
            Column.text("plan_goal"), Column.text("plan_task"), Column.instant("plan_ms"));

    @Override
    public String table() {
        return "sessions";
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public String key(Session session) {
        return session.id();
    }

    @Override
    public Object[] values(Session s) {
        ProcessIdentity process = s.process();
        Plan plan = s.plan();
        return new Object[] {s.id(), s.agent().wireName(), process == null ? null : process.pid(),
            process == null ? null : process.startedAt(), s.host(), s.cwd(), s.repoRoot(), s.startedAt(),
            s.lastHeartbeat(), s.name(), s.parentId(), s.keyHash(), plan == null ? null : plan.goal(),
            plan == null ? null : plan.currentTask(), plan == null ? null : plan.updatedAt()};
    }

    @Override
    public Session read(Row row) {
        Instant planAt = row.instant("plan_ms");
        Plan plan = planAt == null ? null : new Plan(row.text("plan_goal"), row.text("plan_task"), planAt);
        return new Session(row.text("id"), agent(row), process(row), row.text("host"), row.text("cwd"),
                row.text("repo_root"), row.instant("started_ms"), row.instant("heartbeat_ms"), row.text("name"),
                row.text("parent_id"), row.text("key_hash"), plan);
    }

    static AgentKind agent(Row row) {
        return AgentKind.stored(row.text("agent"));
    }

    /** No process, or none that can be told apart (pid 0 or below), reads as none. */
    static ProcessIdentity process(Row row) {
        Long pid = row.integer("pid");
        return pid == null || pid <= 0 ? null : new ProcessIdentity(pid, row.instant("pid_start_ms"));
    }
}
