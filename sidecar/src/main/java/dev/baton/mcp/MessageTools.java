package dev.baton.mcp;

import dev.baton.Baton;
import dev.baton.message.InboxEntry;
import dev.baton.message.InboxPage;
import dev.baton.message.InboxQuery;
import dev.baton.message.Messages;
import dev.baton.message.SentMessage;
import dev.baton.session.Session;
import java.util.ArrayList;
import java.util.List;

/** send_message and fetch_inbox. */
final class MessageTools {

    private final Baton baton;

    MessageTools(Baton baton) {
        this.baton = baton;
    }

    List<Tool> tools() {
        return List.of(
                new Tool("send_message", "Message another session",
                        "Send a short message to another agent session, or to every running session with to=\"*\"."
                                + " The recipient sees it on its next tool call and in its inbox.",
                        Schema.agentCall()
                                .property("to", Schema.string("A session id, a unique start of one (such as 3f2a), or * for"
                                        + " every running session.", 1, 200))
                                .property("text", Schema.string("The message.", 1, Messages.MAX_TEXT_LENGTH))
                                .required("to", "text").build(),
                        this::send),
                new Tool("fetch_inbox", "Read your messages",
                        "Read the messages sent to you, newest first, a page at a time. By default only unread ones,"
                                + " and the returned ones are marked read.",
                        Schema.agentCall()
                                .property("unread_only", Schema.bool("Only messages you have not marked read.", true))
                                .property("from", Schema.string("Only messages from sessions whose id starts with this.", 1, 200))
                                .property("since", Schema.dateTime("Only messages sent at or after this instant (ISO-8601)."))
                                .property("page", Schema.integer("Page number, from 1.", 1, 1_000_000, 1))
                                .property("page_size", Schema.integer("Messages per page.", 1, InboxQuery.MAX_PAGE_SIZE,
                                        InboxQuery.DEFAULT_PAGE_SIZE))
                                .property("mark_read", Schema.bool("Mark the returned messages read.", true))
                                .build(),
                        this::inbox));
    }

    private ToolResult send(ToolArgs args) {
        Session session = args.session();
        SentMessage sent = baton.messages().send(session.id(), args.string("to"), args.string("text"));
        String to = sent.message().isBroadcast() ? "everyone (" + sent.recipients() + " session(s))" : sent.message().recipient();
        return ToolResult.ok("message " + sent.message().id() + " sent to " + to, sent);
    }

    private ToolResult inbox(ToolArgs args) {
        Session session = args.session();
        InboxPage page = baton.messages().inbox(session.id(), new InboxQuery(args.bool("unread_only", true),
                args.string("from"), args.instant("since"), args.integer("page", 1),
                args.integer("page_size", InboxQuery.DEFAULT_PAGE_SIZE)));
        List<Long> unreadShown = page.messages().stream().filter(InboxEntry::unread).map(InboxEntry::id).toList();
        if (args.bool("mark_read", true) && !unreadShown.isEmpty()) {
            baton.messages().markRead(session.id(), unreadShown);
        }
        List<String> lines = new ArrayList<>();
        for (InboxEntry entry : page.messages()) {
            lines.add("#" + entry.id() + " from " + (entry.fromAgent() == null ? "" : entry.fromAgent() + " ") + entry.from()
                    + (entry.broadcast() ? " to everyone" : "") + " at " + entry.sentAt() + ": " + entry.text());
        }
        lines.add(page.messages().isEmpty() ? "no messages" + (args.bool("unread_only", true) ? " unread" : "")
                : "page " + page.page() + " of " + page.pages() + " (" + page.total() + " message(s))");
        return ToolResult.ok(String.join("\n", lines), page);
    }
}
