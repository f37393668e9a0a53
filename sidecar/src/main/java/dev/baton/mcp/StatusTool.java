package dev.baton.mcp;

import dev.baton.Baton;
import dev.baton.lock.LockRows;
import dev.baton.message.InboxQuery;
import dev.baton.negotiation.NegotiationView;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** status: Baton at a glance, and with the caller's session, what concerns it (including notices not yet shown). */
final class StatusTool {

    private final Baton baton;

    StatusTool(Baton baton) {
        this.baton = baton;
    }

    Tool tool() {
        return new Tool("status", "Baton status",
                "Baton at a glance: running sessions and held locks, and once your session is registered (your first"
                        + " hook call does that) also your locks, the open requests you made or must answer, your unread"
                        + " message count, and any notices you have not been shown yet (requests for your files, answers"
                        + " to yours, new messages).",
                Schema.object().build(),
                this::status);
    }

    private ToolResult status(ToolArgs args) {
        Map<String, Object> status = new LinkedHashMap<>();
        baton.ledger().read(world -> {
            status.put("sessions", world.rows(SessionRows.SESSIONS).size());
            status.put("locks", world.count(LockRows.FILES));
            return null;
        });
        List<String> lines = new ArrayList<>();
        lines.add(status.get("sessions") + " session(s) running, " + status.get("locks") + " file(s) locked");
        Optional<Session> caller = args.caller().sessionIfAny();
        if (caller.isPresent()) {
            Session session = caller.get();
            List<String> files = baton.locks().locksOf(session.id()).stream().map(lock -> lock.file()).toList();
            List<NegotiationView> negotiations = baton.negotiations().list(session.id(), true);
            int unread = baton.messages().inbox(session.id(), new InboxQuery(true, null, null, 1, 1)).unread();
            List<String> notices = baton.notices().takeNotices(session.id());
            status.put("your_locks", files);
            status.put("your_negotiations", negotiations);
            status.put("unread_messages", unread);
            status.put("notices", notices);
            lines.add("you hold " + files.size() + " file(s); " + negotiations.size() + " open request(s) involve you; "
                    + unread + " unread message(s)");
            negotiations.forEach(view -> lines.add(view.summary()));
            lines.addAll(notices);
        }
        return ToolResult.ok(String.join("\n", lines), status);
    }
}
