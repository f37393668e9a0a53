package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.home.BatonHome;
import dev.baton.http.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code baton watch}: prints the sidecar's event stream, one line per event. When the sidecar asks
 * it to resync (it read too slowly) it reconnects from the last event it printed, so nothing is lost.
 */
@Command(name = "watch", description = "Print the live event stream, one line per event (-w: a live table of the held locks).")
final class WatchCommand extends SidecarCommands implements Callable<Integer> {

    /** What the listener hands to the printing thread when the connection ends. */
    private static final Object CLOSED = new Object();

    @Spec CommandSpec spec;
    @Option(names = "--since", paramLabel = "SEQ", description = "Start after event SEQ instead of with a snapshot.")
    Long since;
    @Option(names = "--count", paramLabel = "N", description = "Exit after N events.")
    Integer count;
    @Option(names = {"-w", "--table"}, description = "Show the held locks as a table, redrawn at each change, instead of event lines.")
    boolean table;
    /** The environment to find the sidecar in; tests set it, otherwise the process's own. */
    Map<String, String> environment;

    @Override
    Map<String, String> env() {
        return environment != null ? environment : super.env();
    }

    @Override
    public Integer call() throws InterruptedException {
        if ((since != null && since < 0) || (count != null && count < 1)) {
            throw new CliException("--since must be zero or more and --count at least 1");
        }
        if (table && json) {
            throw new CliException("--table draws a table for people and --json prints the frames for scripts; give one");
        }
        PrintWriter out = spec.commandLine().getOut();
        Long from = since;
        int printed = 0;
        while (true) {
            BlockingQueue<Object> frames = new LinkedBlockingQueue<>();
            WebSocket socket = connect(from, frames);
            try {
                while (true) {
                    Object next = frames.take();
                    if (next == CLOSED) {
                        spec.commandLine().getErr().println("baton: the sidecar closed the event stream");
                        return 1;
                    }
                    String text = (String) next;
                    JsonNode frame = Json.mapper().readTree(text);
                    if (table) {
                        drawTable(out, frame);
                    } else {
                        out.println(json ? text : EventLine.of(frame));
                    }
                    out.flush();
                    if (frame.has("seq")) {
                        from = frame.path("seq").asLong();
                    }
                    if ("event".equals(frame.path("type").asText()) && count != null && ++printed >= count) {
                        return 0;
                    }
                    if ("resync".equals(frame.path("type").asText())) {
                        break; // reconnect from the last event printed
                    }
                }
            } catch (IOException e) {
                throw new CliException("the sidecar sent a frame that is not JSON: " + e.getMessage());
            } finally {
                socket.abort();
            }
        }
    }

    /** The held locks as they are after this frame; on a terminal the screen is cleared first, so the table stays put. */
    private void drawTable(PrintWriter out, JsonNode frame) {
        String type = frame.path("type").asText();
        if (!type.equals("snapshot") && !type.equals("event")) {
            return;
        }
        if (Table.onTerminal()) {
            out.print("\u001b[H\u001b[2J");
        }
        JsonNode locks = client().get("/v1/locks").path("locks");
        out.println("held locks after #" + frame.path("seq").asLong() + " (" + locks.size() + "):");
        LockCommands.Locks.printFileLocks(out, locks);
    }

    private WebSocket connect(Long after, BlockingQueue<Object> frames) {
        BatonHome home = home();
        try {
            String endpoint = SidecarClient.verifiedEndpoint(home);
            String token = home.readToken().orElseThrow(() -> new CliException(
                    "the token file " + home.tokenFile() + " is missing; start the sidecar with `baton serve`"));
            URI uri = URI.create("ws://" + endpoint + "/v1/events" + (after == null ? "" : "?since=" + after));
            return HttpClient.newHttpClient().newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .header("Authorization", "Bearer " + token)
                    .buildAsync(uri, new Listener(frames))
                    .get(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new CliException("cannot read " + home.dir() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted");
        } catch (Exception e) {
            Throwable cause = e instanceof CompletionException || e.getCause() != null ? e.getCause() : e;
            throw new CliException("cannot open the event stream: " + cause);
        }
    }

    /** Hands whole text frames to the printing thread, asking for the next one each time. */
    private static final class Listener implements WebSocket.Listener {
        private final BlockingQueue<Object> frames;
        private final StringBuilder partial = new StringBuilder();

        Listener(BlockingQueue<Object> frames) {
            this.frames = frames;
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                frames.add(partial.toString());
                partial.setLength(0);
            }
            socket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            frames.add(CLOSED);
            return null;
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            frames.add(CLOSED);
        }
    }
}
