package dev.baton.message;

import dev.baton.state.Column;
import dev.baton.state.Row;
import dev.baton.state.RowKind;
import java.util.List;

/** The messages table (schema version 2): a row per kept message, kept by id, which is the order they were sent in. */
final class MessageColumns implements RowKind<Long, Message> {

    private static final List<Column> COLUMNS = List.of(Column.integer("id"), Column.text("sender_id"),
            Column.text("recipient"), Column.text("body"), Column.instant("sent_ms"));

    @Override
    public String table() {
        return "messages";
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public Long key(Message message) {
        return message.id();
    }

    @Override
    public Object[] values(Message m) {
        return new Object[] {m.id(), m.senderId(), m.recipient(), m.text(), m.sentAt()};
    }

    @Override
    public Message read(Row row) {
        return new Message(row.number("id"), row.text("sender_id"), row.text("recipient"), row.text("body"),
                row.instant("sent_ms"));
    }

    @Override
    public Order order() {
        return Order.BY_KEY;
    }
}
