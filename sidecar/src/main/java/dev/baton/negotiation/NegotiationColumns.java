package dev.baton.negotiation;

import dev.baton.state.Column;
import dev.baton.state.Row;
import dev.baton.state.RowKind;
import java.util.Comparator;
import java.util.List;

/**
 * The negotiations table (schema version 2, the remote party's machine and agent since 6): a row per negotiation,
 * upserted at every step of it. They are kept oldest first, which is the order the views and the timeout sweep go
 * through them.
 */
final class NegotiationColumns implements RowKind<String, Negotiation> {

    private static final List<Column> COLUMNS = List.of(
            Column.text("id"), Column.text("file"), Column.text("requester_id"), Column.text("holder_id"),
            Column.text("reason"), Column.text("urgency"), Column.text("state"), Column.instant("created_ms"),
            Column.instant("timeout_ms"), Column.instant("answered_ms"), Column.integer("eta_minutes"),
            Column.text("answer_reason"), Column.instant("resolved_ms"), Column.text("resolution"),
            Column.flag("holder_notified"), Column.text("requester_notified"), Column.text("requester_machine"),
            Column.text("holder_machine"), Column.text("remote_agent"));

    @Override
    public String table() {
        return "negotiations";
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public String key(Negotiation negotiation) {
        return negotiation.id();
    }

    @Override
    public Object[] values(Negotiation n) {
        return new Object[] {n.id(), n.file(), n.requesterId(), n.holderId(), n.reason(), n.urgency().wireName(),
            n.state().wireName(), n.createdAt(), n.timeoutAt(), n.answeredAt(), n.etaMinutes(), n.answerReason(),
            n.resolvedAt(), n.resolution(), n.holderNotified(),
            n.requesterNotified() == null ? null : n.requesterNotified().wireName(), n.requesterMachine(),
            n.holderMachine(), n.remoteAgent()};
    }

    @Override
    public Negotiation read(Row row) {
        Long eta = row.integer("eta_minutes");
        String told = row.text("requester_notified");
        return new Negotiation(row.text("id"), row.text("file"), row.text("requester_id"), row.text("holder_id"),
                row.text("reason"), Urgency.parse(row.text("urgency")), NegotiationStatus.fromWireName(row.text("state")),
                row.instant("created_ms"), row.instant("timeout_ms"), row.instant("answered_ms"),
                eta == null ? null : eta.intValue(), row.text("answer_reason"), row.instant("resolved_ms"),
                row.text("resolution"), row.flag("holder_notified"),
                told == null ? null : NegotiationStatus.fromWireName(told), row.text("requester_machine"),
                row.text("holder_machine"), row.text("remote_agent"));
    }

    @Override
    public Order order() {
        return Order.INSERTION;
    }

    @Override
    public Comparator<Negotiation> loadOrder() {
        return Comparator.comparing(Negotiation::createdAt).thenComparing(Negotiation::id);
    }
}
