package dev.baton.message;

import dev.baton.session.Session;
import dev.baton.session.SessionPrefix;
import dev.baton.session.SessionRows;
import dev.baton.state.BatonException;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Messages between sessions: to one session or to everyone, length-limited, read state kept per
 * recipient (so one recipient reading a broadcast leaves it unread for the others).
 */
public final class Messages {

    public static final int MAX_TEXT_LENGTH = 4000;
    public static final int MAX_IDS_PER_CALL = 1000;
    /** Messages are coordination, not an archive: older ones are pruned by the sweeper. */
    static final Duration RETENTION = Duration.ofDays(7);

    private final Ledger ledger;
    private volatile MessageRelay relay = MessageRelay.NONE;

    public Messages(Ledger ledger) {
        this.ledger = ledger;
    }

    /** @param to a session id, a unique start of one, or {@code *} for everyone */
    public SentMessage send(String senderId, String to, String text) {
        requireText(text);
        if (to == null || to.isBlank()) {
            throw BatonException.invalid("say who the message is for: a session id (or its start), or * for everyone");
        }
        return ledger.write(tx -> {
            World world = tx.world();
            Session sender = requireSession(world, senderId);
            String recipient = Message.EVERYONE;
            if (!Message.EVERYONE.equals(to.trim())) {
                Optional<String> elsewhere = knownHere(world, to) ? Optional.empty() : relay.remoteSession(to.trim());
                if (elsewhere.isPresent()) {
                    relay.relay(sender, elsewhere.get(), text);
                    return new SentMessage(new Message(0, sender.id(), elsewhere.get(), text, tx.now()), 1);
                }
                Session target = SessionPrefix.resolve(world, to);
                if (target.id().equals(sender.id())) {
                    throw BatonException.invalid("a session cannot send a message to itself");
                }
                recipient = target.id();
            }
            Message message = new Message(MessageRows.nextId(world), sender.id(), recipient, text, tx.now());
            MessageRows.save(tx, message);
            if (message.isBroadcast() && !relay.broadcast(sender, text)) {
                tx.audit("broadcast-local", sender.id(), null, "the other machines of the team were not reached", null);
            }
            long readers = message.isBroadcast()
                    ? world.rows(SessionRows.SESSIONS).stream().filter(session -> addressedTo(message, session)).count()
                    : 1;
            return new SentMessage(message, (int) readers);
        });
    }

    /** Sessions of other machines of a team ({@link MessageRelay}); none without a team. */
    public void relayThrough(MessageRelay relay) {
        this.relay = relay;
    }

    private static boolean knownHere(World world, String to) {
        String wanted = to.trim();
        return world.rows(SessionRows.SESSIONS).stream().anyMatch(session -> session.id().startsWith(wanted));
    }

    private static void requireText(String text) {
        if (text == null || text.isBlank()) {
            throw BatonException.invalid("the message is empty; write what the other session should know");
        }
        if (text.length() > MAX_TEXT_LENGTH) {
            throw BatonException.invalid("the message is " + text.length() + " characters long; the limit is "
                    + MAX_TEXT_LENGTH + " (send a file path instead of its content)");
        }
    }

    /** Whether {@code session} may read {@code message}: it is addressed to it, or a broadcast sent while it ran. */
    public static boolean addressedTo(Message message, Session session) {
        if (message.isBroadcast()) {
            return !message.senderId().equals(session.id()) && !message.sentAt().isBefore(session.startedAt());
        }
        return message.recipient().equals(session.id());
    }

    public InboxPage inbox(String sessionId, InboxQuery query) {
        return ledger.read(world -> {
            Session session = requireSession(world, sessionId);
            List<InboxEntry> matching = new ArrayList<>();
            int unread = 0;
            for (Message message : world.table(MessageRows.MESSAGES).byKey().descendingMap().values()) {
                if (!addressedTo(message, session)) {
                    continue;
                }
                MessageReceipt receipt = MessageRows.receipt(world, message.id(), session.id())
                        .orElse(MessageReceipt.none(message.id(), session.id()));
                if (!receipt.isRead()) {
                    unread++;
                }
                if (query.unreadOnly() && receipt.isRead()
                        || query.from() != null && !message.senderId().startsWith(query.from())
                        || query.since() != null && message.sentAt().isBefore(query.since())) {
                    continue;
                }
                matching.add(entry(world, message, receipt));
            }
            int total = matching.size();
            int pages = Math.max(1, (total + query.pageSize() - 1) / query.pageSize());
            int from = (int) Math.min(total, (long) (query.page() - 1) * query.pageSize());
            int to = Math.min(total, from + query.pageSize());
            return new InboxPage(List.copyOf(matching.subList(from, to)), query.page(), query.pageSize(), pages, total, unread);
        });
    }

    /** The newest {@code limit} messages between any sessions, newest first: the supervisor's view. */
    public List<SupervisedMessage> everyMessage(int limit) {
        return ledger.read(world -> world.table(MessageRows.MESSAGES).byKey().descendingMap().values().stream()
                .limit(limit)
                .map(message -> new SupervisedMessage(message.id(), message.senderId(), message.recipient(),
                        message.text(), message.sentAt(), message.isBroadcast() ? null
                        : MessageRows.receipt(world, message.id(), message.recipient()).map(MessageReceipt::isRead)
                                .orElse(false)))
                .toList());
    }

    private static InboxEntry entry(World world, Message message, MessageReceipt receipt) {
        Optional<Session> sender = world.find(SessionRows.SESSIONS, message.senderId());
        return new InboxEntry(message.id(), message.senderId(), sender.map(s -> s.agent().wireName()).orElse(null),
                sender.map(Session::name).orElse(null), message.isBroadcast(), message.text(), message.sentAt(),
                receipt.deliveredAt(), receipt.readAt());
    }

    /** Marks messages read for this recipient; an id not in its inbox fails the whole call. */
    public ReadOutcome markRead(String sessionId, Collection<Long> ids) {
        if (ids == null || ids.isEmpty()) {
            throw BatonException.invalid("name the messages to mark read, or mark all of them read");
        }
        if (ids.size() > MAX_IDS_PER_CALL) {
            throw BatonException.invalid("at most " + MAX_IDS_PER_CALL + " message ids per call, got " + ids.size());
        }
        return ledger.write(tx -> {
            Session session = requireSession(tx.world(), sessionId);
            List<Message> messages = new ArrayList<>();
            for (long id : new TreeSet<>(ids)) {
                Message message = tx.world().find(MessageRows.MESSAGES, id).filter(m -> addressedTo(m, session))
                        .orElseThrow(() -> BatonException.notFound("message " + id + " is not in the inbox of session "
                                + session.shortId() + "; list it with `baton msg inbox`"));
                messages.add(message);
            }
            return markRead(tx, session, messages);
        });
    }

    public ReadOutcome markAllRead(String sessionId) {
        return ledger.write(tx -> {
            Session session = requireSession(tx.world(), sessionId);
            List<Message> addressed = tx.world().table(MessageRows.MESSAGES).byKey().values().stream()
                    .filter(message -> addressedTo(message, session))
                    .toList();
            return markRead(tx, session, addressed);
        });
    }

    private static ReadOutcome markRead(Transaction tx, Session session, List<Message> messages) {
        List<Long> marked = new ArrayList<>();
        List<Long> already = new ArrayList<>();
        for (Message message : messages) {
            MessageReceipt receipt = MessageRows.receipt(tx.world(), message.id(), session.id())
                    .orElse(MessageReceipt.none(message.id(), session.id()));
            if (receipt.isRead()) {
                already.add(message.id());
            } else {
                MessageRows.saveReceipt(tx, receipt.read(tx.now()));
                marked.add(message.id());
            }
        }
        return new ReadOutcome(marked, already);
    }

    /** Unread messages this session was not yet shown, oldest first, marked delivered in {@code tx}. */
    public List<Message> takeUndelivered(Transaction tx, Session session) {
        List<Message> taken = new ArrayList<>();
        for (Message message : tx.world().table(MessageRows.MESSAGES).byKey().values()) {
            if (!addressedTo(message, session)) {
                continue;
            }
            MessageReceipt receipt = MessageRows.receipt(tx.world(), message.id(), session.id())
                    .orElse(MessageReceipt.none(message.id(), session.id()));
            if (receipt.deliveredAt() == null && !receipt.isRead()) {
                MessageRows.saveReceipt(tx, receipt.delivered(tx.now()));
                taken.add(message);
            }
        }
        return taken;
    }

    /** Prunes messages nobody can read any more: the recipient ended, or every possible reader did, or too old. */
    public int sweep() {
        return ledger.write(tx -> {
            Instant cutoff = tx.now().minus(RETENTION);
            List<Message> stale = tx.world().table(MessageRows.MESSAGES).byKey().values().stream()
                    .filter(message -> message.sentAt().isBefore(cutoff)
                            || tx.world().rows(SessionRows.SESSIONS).stream()
                                    .noneMatch(session -> addressedTo(message, session)))
                    .toList();
            stale.forEach(message -> MessageRows.remove(tx, message));
            return stale.size();
        });
    }

    private static Session requireSession(World world, String sessionId) {
        return world.find(SessionRows.SESSIONS, sessionId).orElseThrow(() -> BatonException.notFound("session " + sessionId
                + " is not registered (it may have ended or been cleaned up as stale)"));
    }
}
