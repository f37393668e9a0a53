package dev.baton.message;

import java.util.List;

/** One page of an inbox, newest first, with the counts a reader needs to ask for the next page. */
public record InboxPage(List<InboxEntry> messages, int page, int pageSize, int pages, int total, int unread) {
}
