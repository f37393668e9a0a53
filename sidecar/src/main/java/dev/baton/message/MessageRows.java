package dev.baton.message;

import dev.baton.state.RowKind;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The message module's rows, and the steps that change them: each step writes its rows through the
 * transaction and records the {@link MessageChange} that says what it meant.
 */
public final class MessageRows {

    /** Kept messages by id, oldest first. */
    public static final RowKind<Long, Message> MESSAGES = new MessageColumns();
    /** Each recipient's receipt of each message. */
    public static final RowKind<ReceiptKey, MessageReceipt> RECEIPTS = new ReceiptColumns();
    /** Every kind this module owns, for the ledger to load. */
    public static final List<RowKind<?, ?>> KINDS = List.of(MESSAGES, RECEIPTS);

    /** A receipt's key: the message and the recipient. */
    public record ReceiptKey(long messageId, String sessionId) implements Comparable<ReceiptKey> {

        private static final Comparator<ReceiptKey> ORDER =
                Comparator.comparingLong(ReceiptKey::messageId).thenComparing(ReceiptKey::sessionId);

        @Override
        public int compareTo(ReceiptKey other) {
            return ORDER.compare(this, other);
        }
    }

    private MessageRows() {
    }

    public static Optional<MessageReceipt> receipt(World world, long messageId, String sessionId) {
        return world.find(RECEIPTS, new ReceiptKey(messageId, sessionId));
    }

    /** The id the next message gets; ids only grow while the sidecar runs, even when the newest is pruned. */
    public static long nextId(World world) {
        Long highest = world.table(MESSAGES).highestKey();
        return highest == null ? 1 : highest + 1;
    }

    /** Saves a new message; its id must be {@link #nextId}. */
    public static void save(Transaction tx, Message message) {
        tx.put(MESSAGES, message);
        tx.record(new MessageChange.MessageSaved(message));
    }

    /** Removes a message nobody can read any more, with its receipts. */
    public static void remove(Transaction tx, Message message) {
        if (tx.world().find(MESSAGES, message.id()).isEmpty()) {
            return;
        }
        for (ReceiptKey receipt : List.copyOf(tx.world().keysIn(RECEIPTS, message.id()))) {
            tx.remove(RECEIPTS, receipt);
        }
        tx.remove(MESSAGES, message.id());
        tx.record(new MessageChange.MessageRemoved(message));
    }

    /** One recipient's delivery or read state of one message (an upsert). */
    public static void saveReceipt(Transaction tx, MessageReceipt receipt) {
        tx.put(RECEIPTS, receipt);
        tx.record(new MessageChange.MessageReceiptSaved(receipt));
    }
}
