package dev.baton.message;

import dev.baton.state.Column;
import dev.baton.state.Row;
import dev.baton.state.RowKind;
import java.util.List;

/**
 * The message_receipts table (schema version 2): one recipient's delivery and reading of one message,
 * grouped by message so that a pruned message takes its receipts with it.
 */
final class ReceiptColumns implements RowKind<MessageRows.ReceiptKey, MessageReceipt> {

    private static final List<Column> COLUMNS = List.of(Column.integer("message_id"), Column.text("session_id"),
            Column.instant("delivered_ms"), Column.instant("read_ms"));

    @Override
    public String table() {
        return "message_receipts";
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public int keyColumns() {
        return 2;
    }

    @Override
    public MessageRows.ReceiptKey key(MessageReceipt receipt) {
        return new MessageRows.ReceiptKey(receipt.messageId(), receipt.sessionId());
    }

    @Override
    public Object[] values(MessageReceipt r) {
        return new Object[] {r.messageId(), r.sessionId(), r.deliveredAt(), r.readAt()};
    }

    @Override
    public MessageReceipt read(Row row) {
        return new MessageReceipt(row.number("message_id"), row.text("session_id"), row.instant("delivered_ms"),
                row.instant("read_ms"));
    }

    @Override
    public Object group(MessageReceipt receipt) {
        return receipt.messageId();
    }
}
