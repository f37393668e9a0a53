package dev.baton.message;

import dev.baton.state.Change;

/** What the message module's steps mean, for the listeners. */
public sealed interface MessageChange extends Change {

    record MessageSaved(Message message) implements MessageChange {
    }

    /** A message nobody can read any more was pruned, with its receipts. */
    record MessageRemoved(Message message) implements MessageChange {
    }

    /** One recipient's delivery or read state of one message (an upsert). */
    record MessageReceiptSaved(MessageReceipt receipt) implements MessageChange {
    }
}
