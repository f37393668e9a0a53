package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.protocol.MessageInfo;
import java.time.Instant;

/** One row of the Messages table. */
public record MessageRow(String id, String from, String to, Instant at, String text, String read) {

    public static MessageRow of(MessageInfo m, Board board) {
        String to = "*".equals(m.to()) ? "everyone" : board.label(m.to());
        String read = m.read() == null ? "—" : m.read() ? "read" : "unread";
        return new MessageRow(m.id(), board.label(m.from()), to, m.at(), m.text() == null ? "…" : m.text(), read);
    }
}
