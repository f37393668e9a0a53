package dev.baton.negotiation;

import dev.baton.message.Message;
import dev.baton.message.Messages;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the hook tells a session on its next tool call: files someone else took from it, requests for files it holds (with the
 * exact command to answer), answers to its own requests, and messages it has not been shown.
 * Each is shown once; a shown message stays unread until the session marks it read.
 */
public final class SessionNotices implements NoticeSource {

    /** Hook context is read by a model on every call: long messages are cut here and read in full from the inbox. */
    static final int MAX_SHOWN_TEXT = 600;

    private final Ledger ledger;
    private final Messages messages;
    private final HandOverNotices handOvers;

    public SessionNotices(Ledger ledger, Messages messages, HandOverNotices handOvers) {
        this.ledger = ledger;
        this.messages = messages;
        this.handOvers = handOvers;
    }

    @Override
    public List<String> takeNotices(String sessionId) {
        // One transaction: two concurrent hook calls of one session cannot both show the same item.
        return ledger.write(tx -> {
            List<String> notices = new ArrayList<>(handOvers.take(sessionId));
            Session session = tx.world().find(SessionRows.SESSIONS, sessionId).orElse(null);
            if (session == null) {
                return notices;
            }
            for (Negotiation n : List.copyOf(tx.world().rows(NegotiationRows.NEGOTIATIONS))) {
                if (!n.holderElsewhere() && n.holderId().equals(session.id()) && n.isOpen() && !n.holderNotified()) {
                    notices.add(requestNotice(tx.world(), n));
                    NegotiationRows.save(tx, n.holderTold());
                } else if (!n.requesterElsewhere() && n.requesterId().equals(session.id())) {
                    answerNotice(tx, n).ifPresent(notices::add);
                }
            }
            for (Message message : messages.takeUndelivered(tx, session)) {
                notices.add(messageNotice(tx.world(), message));
            }
            return notices;
        });
    }

    private static String requestNotice(World world, Negotiation n) {
        String file = Parties.fileFor(world, n.holderId(), n.file());
        return "Baton: " + Parties.requester(world, n) + " asks for " + file + ", which you hold ("
                + n.urgency().wireName() + ", request " + n.id() + "): \"" + n.reason() + "\". Answer with `baton respond "
                + n.id() + " release` to hand it over now, or `baton respond " + n.id()
                + " defer --eta MINUTES --reason \"…\"` (at most 60 min). "
                + (n.requesterElsewhere() ? "It waits on another machine, which cannot take the file from you: answer so"
                + " it knows whether to wait." : "Without an answer by " + n.timeoutAt()
                + " the requester may force-release it.");
    }

    private static Optional<String> answerNotice(Transaction tx, Negotiation n) {
        Instant now = tx.now();
        NegotiationStatus status = n.status(now);
        if (status == n.requesterNotified() || !(status == NegotiationStatus.DEFERRED
                || status == NegotiationStatus.TIMEOUT_ELIGIBLE || status == NegotiationStatus.RELEASED)) {
            return Optional.empty();
        }
        NegotiationRows.save(tx, n.requesterTold(status));
        World world = tx.world();
        String file = Parties.fileFor(world, n.requesterId(), n.file());
        String holder = Parties.holder(world, n);
        String text = switch (status) {
            case DEFERRED -> holder + " keeps " + file + " for up to " + n.etaMinutes() + " more min: \"" + n.answerReason()
                    + "\"." + (n.holderElsewhere() ? " You are told here when it is released there."
                    : " You may force-release it after " + n.timeoutAt() + " if it is still held.");
            case TIMEOUT_ELIGIBLE -> holder + " did not hand over " + file + " in time; " + (n.holderElsewhere()
                    ? "a lock of another machine cannot be force-released from here: message them with `baton msg send "
                    + n.holderId() + " \"…\"`, ask whoever supervises machine " + n.holderMachine() + " to free it there,"
                    + " or keep waiting."
                    : "you may force-release it with `baton force-release " + Parties.quoted(file) + "`, or keep waiting.");
            default -> file + " was released (" + n.resolution() + "); take it by editing it.";
        };
        return Optional.of("Baton: your request " + n.id() + ": " + text);
    }

    private static String messageNotice(World world, Message message) {
        String text = message.text().length() <= MAX_SHOWN_TEXT ? message.text()
                : message.text().substring(0, MAX_SHOWN_TEXT) + "… (cut; read it whole with `baton msg inbox`)";
        return "Baton: message " + message.id() + " from " + Parties.describe(world, message.senderId())
                + (message.isBroadcast() ? " to everyone" : "") + ": \"" + text + "\" (mark it read with `baton msg read "
                + message.id() + "`; reply with `baton msg send " + shortId(message.senderId()) + " \"…\"`)";
    }

    private static String shortId(String id) {
        return Session.shortId(id);
    }
}
