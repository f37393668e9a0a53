package dev.baton.dashboard;

import dev.baton.dashboard.protocol.Frame;

/** Protocol frames as the sidecar sends them (event-stream protocol v1), for feeding view-models in tests. */
public final class WireFrames {

    public static final String REPO = "/work/app";

    private WireFrames() {
    }

    public static Frame frame(String json) {
        return Frame.parse(json);
    }

    public static String session(String id, String name, String startedAt) {
        return """
                {"id":"%s","agent":"claude-code","pid":4121,"pid_start":"2025-01-01T09:00:00Z","alive":"alive",
                 "host":"dev","cwd":"%s","repo_root":"%s","started_at":"%s","last_heartbeat":"%s",
                 "name":%s,"plan":{"goal":"refactor auth","current_task":"split the filter"},"locks":0}
                """.formatted(id, REPO, REPO, startedAt, startedAt, name == null ? "null" : "\"" + name + "\"");
    }

    public static String lock(String file, String session, String since, boolean editing) {
        return """
                {"file":"%s/%s","holder":{"session":"%s","agent":"claude-code","pid":4121,"alive":"alive",
                 "host":"dev","cwd":"%s","since":"%s","last_edit":"%s","last_heartbeat":"%s","name":null,"plan":null},
                 "since":"%s","last_edit":"%s","edit_in_flight":%s}
                """.formatted(REPO, file, session, REPO, since, since, since, since, since, editing);
    }

    /** A session working in {@code cwd}, its own worktree of a repository. */
    public static String sessionIn(String id, String cwd, String startedAt) {
        return """
                {"id":"%s","agent":"claude-code","pid":4121,"pid_start":"2025-01-01T09:00:00Z","alive":"alive",
                 "host":"dev","cwd":"%s","repo_root":"%s","started_at":"%s","last_heartbeat":"%s",
                 "name":null,"plan":null,"locks":0}
                """.formatted(id, cwd, cwd, startedAt, startedAt);
    }

    /**
     * A lock on {@code path} in the worktree {@code worktree} of {@code repository}, with its copy as the sidecar
     * describes it ({@code branch} null for none).
     */
    public static String lockInCopy(String worktree, String path, String session, String repository, String branch) {
        return """
                {"file":"%s/%s","holder":{"session":"%s","agent":"claude-code","pid":4121,"alive":"alive",
                 "host":"dev","cwd":"%s","since":"2025-01-01T09:50:00Z","last_edit":"2025-01-01T09:50:00Z",
                 "last_heartbeat":"2025-01-01T09:50:00Z","name":null,"plan":null},
                 "since":"2025-01-01T09:50:00Z","last_edit":"2025-01-01T09:50:00Z","edit_in_flight":false,
                 "copy":{"repository":"%s","path":"%s","worktree":"%s","branch":%s}}
                """.formatted(worktree, path, session, worktree, repository, path, worktree,
                branch == null ? "null" : "\"" + branch + "\"");
    }

    public static String snapshot(long seq, String sessions, String locks, String waits, String negotiations,
                                  String deadlocks) {
        return """
                {"type":"snapshot","seq":%d,"snapshot":{"sessions":[%s],"locks":[%s],"named_locks":[],
                 "waits":[%s],"negotiations":[%s],"deadlocks":[%s]}}
                """.formatted(seq, sessions, locks, waits, negotiations, deadlocks);
    }

    public static String emptySnapshot(long seq) {
        return snapshot(seq, "", "", "", "", "");
    }

    public static String event(long seq, String kind, String data) {
        return """
                {"type":"event","seq":%d,"at":"2025-01-01T10:00:00Z","kind":"%s","data":%s}
                """.formatted(seq, kind, data);
    }

    public static String waitOf(String waiter, String holder, String file) {
        return """
                {"waiter":"%s","holder":"%s","file":"%s/%s","kind":"acquire","since":"2025-01-01T10:00:00Z"}
                """.formatted(waiter, holder, REPO, file);
    }

    public static String negotiation(String id, String status, String createdAt, String timeoutAt) {
        return """
                {"id":"%s","file":"%s/src/App.java","requester":"bbbbbbbb-2","holder":"aaaaaaaa-1","reason":"need the router",
                 "urgency":"urgent","status":"%s","created_at":"%s","timeout_at":"%s"}
                """.formatted(id, REPO, status, createdAt, timeoutAt);
    }

    /**
     * Sessions {@code a} ("auth") and {@code b} ("billing") each hold the file the other waits for: a deadlock, b its
     * victim.
     */
    public static String deadlockedPair(String a, String b) {
        return snapshot(3,
                session(a, "auth", "2025-01-01T09:00:00Z") + "," + session(b, "billing", "2025-01-01T09:30:00Z"),
                lock("a.txt", a, "2025-01-01T09:50:00Z", false) + "," + lock("b.txt", b, "2025-01-01T09:50:00Z", false),
                waitOf(a, b, "b.txt") + "," + waitOf(b, a, "a.txt"), "",
                "{\"id\":\"d1\",\"sessions\":[\"" + a + "\",\"" + b + "\"],\"files\":[\"" + REPO + "/b.txt\",\"" + REPO
                        + "/a.txt\"],\"victim\":\"" + b + "\",\"detected_at\":\"2025-01-01T10:00:00Z\"}");
    }
}
