package dev.baton.store;

import dev.baton.message.Message;
import dev.baton.message.MessageReceipt;
import dev.baton.negotiation.Negotiation;
import dev.baton.negotiation.NegotiationStatus;
import dev.baton.negotiation.Urgency;
import dev.baton.state.Change;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The SQLite rows of negotiations, messages and message receipts (schema version 2), written on {@link SqliteStore}'s connection. */
final class CoordinationRows {

    private final Connection connection;
    private final PreparedStatement upsertNegotiation;
    private final PreparedStatement deleteNegotiation;
    private final PreparedStatement insertMessage;
    private final PreparedStatement deleteMessage;
    private final PreparedStatement deleteReceipts;
    private final PreparedStatement upsertReceipt;

    CoordinationRows(Connection connection) throws SQLException {
        this.connection = connection;
        upsertNegotiation = connection.prepareStatement("""
                INSERT OR REPLACE INTO negotiations (id, file, requester_id, holder_id, reason, urgency, state, created_ms,
                    timeout_ms, answered_ms, eta_minutes, answer_reason, resolved_ms, resolution, holder_notified,
                    requester_notified)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""");
        deleteNegotiation = connection.prepareStatement("DELETE FROM negotiations WHERE id = ?");
        insertMessage = connection.prepareStatement(
                "INSERT OR REPLACE INTO messages (id, sender_id, recipient, body, sent_ms) VALUES (?, ?, ?, ?, ?)");
        deleteMessage = connection.prepareStatement("DELETE FROM messages WHERE id = ?");
        deleteReceipts = connection.prepareStatement("DELETE FROM message_receipts WHERE message_id = ?");
        upsertReceipt = connection.prepareStatement("""
                INSERT OR REPLACE INTO message_receipts (message_id, session_id, delivered_ms, read_ms) VALUES (?, ?, ?, ?)""");
    }

    /** Writes the change if it is one of these rows; false for any other change. */
    boolean write(Change change) throws SQLException {
        if (change instanceof Change.NegotiationSaved saved) {
            bind(saved.negotiation());
        } else if (change instanceof Change.NegotiationRemoved removed) {
            deleteNegotiation.setString(1, removed.negotiation().id());
            deleteNegotiation.executeUpdate();
        } else if (change instanceof Change.MessageSaved saved) {
            Message message = saved.message();
            insertMessage.setLong(1, message.id());
            insertMessage.setString(2, message.senderId());
            insertMessage.setString(3, message.recipient());
            insertMessage.setString(4, message.text());
            insertMessage.setLong(5, message.sentAt().toEpochMilli());
            insertMessage.executeUpdate();
        } else if (change instanceof Change.MessageRemoved removed) {
            deleteReceipts.setLong(1, removed.message().id());
            deleteReceipts.executeUpdate();
            deleteMessage.setLong(1, removed.message().id());
            deleteMessage.executeUpdate();
        } else if (change instanceof Change.MessageReceiptSaved saved) {
            MessageReceipt receipt = saved.receipt();
            upsertReceipt.setLong(1, receipt.messageId());
            upsertReceipt.setString(2, receipt.sessionId());
            Instants.bind(upsertReceipt, 3, receipt.deliveredAt());
            Instants.bind(upsertReceipt, 4, receipt.readAt());
            upsertReceipt.executeUpdate();
        } else {
            return false;
        }
        return true;
    }

    private void bind(Negotiation n) throws SQLException {
        upsertNegotiation.setString(1, n.id());
        upsertNegotiation.setString(2, n.file());
        upsertNegotiation.setString(3, n.requesterId());
        upsertNegotiation.setString(4, n.holderId());
        upsertNegotiation.setString(5, n.reason());
        upsertNegotiation.setString(6, n.urgency().wireName());
        upsertNegotiation.setString(7, n.state().wireName());
        upsertNegotiation.setLong(8, n.createdAt().toEpochMilli());
        upsertNegotiation.setLong(9, n.timeoutAt().toEpochMilli());
        Instants.bind(upsertNegotiation, 10, n.answeredAt());
        if (n.etaMinutes() == null) {
            upsertNegotiation.setNull(11, Types.INTEGER);
        } else {
            upsertNegotiation.setInt(11, n.etaMinutes());
        }
        upsertNegotiation.setString(12, n.answerReason());
        Instants.bind(upsertNegotiation, 13, n.resolvedAt());
        upsertNegotiation.setString(14, n.resolution());
        upsertNegotiation.setInt(15, n.holderNotified() ? 1 : 0);
        upsertNegotiation.setString(16, n.requesterNotified() == null ? null : n.requesterNotified().wireName());
        upsertNegotiation.executeUpdate();
    }

    List<Negotiation> loadNegotiations() throws SQLException {
        List<Negotiation> negotiations = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT * FROM negotiations ORDER BY created_ms, id");
             ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                int eta = rs.getInt("eta_minutes");
                Integer etaMinutes = rs.wasNull() ? null : eta;
                String told = rs.getString("requester_notified");
                negotiations.add(new Negotiation(rs.getString("id"), rs.getString("file"), rs.getString("requester_id"),
                        rs.getString("holder_id"), rs.getString("reason"), Urgency.parse(rs.getString("urgency")),
                        NegotiationStatus.fromWireName(rs.getString("state")), Instants.read(rs, "created_ms"),
                        Instants.read(rs, "timeout_ms"), Instants.read(rs, "answered_ms"), etaMinutes, rs.getString("answer_reason"),
                        Instants.read(rs, "resolved_ms"), rs.getString("resolution"), rs.getInt("holder_notified") != 0,
                        told == null ? null : NegotiationStatus.fromWireName(told)));
            }
        }
        return negotiations;
    }

    List<Message> loadMessages() throws SQLException {
        List<Message> messages = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT * FROM messages ORDER BY id");
             ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                messages.add(new Message(rs.getLong("id"), rs.getString("sender_id"), rs.getString("recipient"),
                        rs.getString("body"), Instants.read(rs, "sent_ms")));
            }
        }
        return messages;
    }

    List<MessageReceipt> loadReceipts() throws SQLException {
        List<MessageReceipt> receipts = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT * FROM message_receipts");
             ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                receipts.add(new MessageReceipt(rs.getLong("message_id"), rs.getString("session_id"),
                        Instants.read(rs, "delivered_ms"), Instants.read(rs, "read_ms")));
            }
        }
        return receipts;
    }
}
