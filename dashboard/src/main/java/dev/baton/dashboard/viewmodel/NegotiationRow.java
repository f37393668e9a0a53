package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.protocol.NegotiationInfo;
import java.time.Instant;

/** One row of the Negotiations table; its countdown is computed against the model's current instant. */
public record NegotiationRow(String id, String requester, String holder, String file, String shownFile,
                             String urgency, String status, String reason, Instant createdAt, Instant timeoutAt,
                             boolean open) {

    public static NegotiationRow of(NegotiationInfo n, Board board) {
        return new NegotiationRow(n.id(), board.label(n.requester()), board.label(n.holder()), n.file(),
                board.shownPath(n.file(), n.holder()), n.urgency() == null ? "normal" : n.urgency(),
                n.status() == null ? "open" : n.status(), n.reason() == null ? "" : n.reason(), n.createdAt(),
                n.timeoutAt(), n.open());
    }
}
