package dev.baton.events;

import java.util.function.Consumer;

/** Where one client's frames go: a WebSocket in production. Sends are asynchronous and never block. */
public interface FrameSink {

    /** Sends one text frame; exactly one of the callbacks runs when it is written or has failed. */
    void send(String frame, Runnable sent, Consumer<Throwable> failed);

    /** A protocol-level ping, so a quiet connection is not closed as idle; it may be dropped if the socket is stuck. */
    void ping();

    /** Closes the connection after what was sent; {@code reason} is for the client's log. */
    void close(String reason);
}
