package dev.baton.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A scripted model on 127.0.0.1 that speaks the wire protocols of the agent CLIs that talk to it (Anthropic Messages,
 * OpenAI Responses, OpenAI Chat Completions, Gemini generateContent, each streamed as server-sent events): each
 * agent's driver tells it its {@link Wire}.
 * Every turn request (one that offers tools) takes the next {@link Step}; side requests (titles, token counts,
 * model lists) get a plain answer and leave the script alone. Every request is recorded, and every turn with the
 * server's monotonic times of its arrival and of the end of its answer.
 * The JDK's HTTP server is enough here: one CLI talks to one instance, and streaming is a chunked body.
 */
public final class FakeModel implements AutoCloseable {

    public static final ObjectMapper JSON = new ObjectMapper();

    /** A request the CLI sent: its method, path with query, and body (JSON when it parses). */
    public record Request(String method, String path, String body) {
        public JsonNode json() {
            try {
                return JSON.readTree(body.isEmpty() ? "{}" : body);
            } catch (IOException e) {
                return JSON.createObjectNode();
            }
        }
    }

    /**
     * A turn request and the step that answered it. {@code arrived}: {@link System#nanoTime()} when its headers
     * had been read; {@code answered}: when the last byte of the answer had been written and the exchange closed.
     */
    record Turn(Request request, Step step, long arrived, long answered) {}

    private final HttpServer server;
    private final Deque<Step> script = new ArrayDeque<>();
    private final List<Request> requests = new ArrayList<>();
    private final List<Turn> turns = new ArrayList<>();
    private final List<Wire> wires = new CopyOnWriteArrayList<>();
    private int served;

    public FakeModel(List<Step> steps) {
        script.addAll(steps);
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fake-model");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
        server.start();
    }

    /** Answers the requests {@code wire} serves from now on: the driver of an agent that speaks it calls this. */
    public void speaks(Wire wire) {
        if (wires.stream().noneMatch(known -> known.getClass() == wire.getClass())) {
            wires.add(wire);
        }
    }

    /** The base URL without a path, e.g. http://127.0.0.1:40123. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public synchronized List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The turns answered so far, in order. */
    synchronized List<Turn> turns() {
        return List.copyOf(turns);
    }

    /** Every request body the CLI sent, joined: tool results the CLI handed back are in here. */
    public synchronized String everythingSent() {
        StringBuilder all = new StringBuilder();
        for (Request r : requests) {
            all.append(r.method()).append(' ').append(r.path()).append('\n').append(r.body()).append('\n');
        }
        return all.toString();
    }

    /**
     * The texts of the last turn request's conversation (its JSON strings, decoded) that contain {@code phrase}: what
     * the model is shown now, each occurrence once per place it holds in the conversation.
     */
    public synchronized List<String> lastTurnTextsContaining(String phrase) {
        List<String> texts = new ArrayList<>();
        if (!turns.isEmpty()) {
            collectTexts(turns.get(turns.size() - 1).request().json(), phrase, texts);
        }
        return texts;
    }

    private static void collectTexts(JsonNode node, String phrase, List<String> texts) {
        if (node.isTextual()) {
            if (node.asText().contains(phrase)) {
                texts.add(node.asText());
            }
            return;
        }
        for (JsonNode child : node) {
            collectTexts(child, phrase, texts);
        }
    }

    /** How many scripted steps are left to answer. */
    synchronized int scriptLength() {
        return script.size();
    }

    /** How many scripted steps have been answered. */
    synchronized int served() {
        return served;
    }

    /** Adds steps for the next turns (e.g. before a second prompt to a live session). */
    synchronized void then(Step... steps) {
        script.addAll(List.of(steps));
    }

    private Step next() {
        Step step;
        synchronized (this) {
            step = script.poll();
        }
        if (step instanceof Step.Pause pause) {
            pause.reached().countDown();
            try {
                if (!pause.released().await(AgentProcess.TURN.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException("a paused script was never resumed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return next();
        }
        if (step == null) {
            return Step.say("done");
        }
        synchronized (this) {
            served++;
        }
        return step;
    }

    private synchronized void record(Request request) {
        requests.add(request);
    }

    private synchronized void record(Turn turn) {
        turns.add(turn);
    }

    /** What the server answers a request with, and the step it took from the script (null for a side request). */
    private record Answer(Wire.Reply reply, Step step) {}

    private void handle(HttpExchange exchange) throws IOException {
        long arrived = System.nanoTime();
        Request request;
        Answer answer;
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().toString();
            request = new Request(exchange.getRequestMethod(), path, body);
            record(request);
            answer = answer(request);
            Wire.Reply reply = answer.reply();
            exchange.getResponseHeaders().set("Content-Type", reply.contentType());
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(reply.status(), reply.streamed() ? 0 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
        if (answer.step() != null) {
            record(new Turn(request, answer.step(), arrived, System.nanoTime()));
        }
    }

    private Answer answer(Request request) {
        String path = request.path();
        JsonNode json = request.json();
        Wire wire = wires.stream().filter(spoken -> spoken.serves(path)).findFirst().orElse(null);
        if (wire == null && path.contains("/models")) {
            return new Answer(Wire.Reply.json(200, "{\"object\":\"list\",\"data\":[],\"models\":[]}"), null);
        }
        if (wire == null) {
            return new Answer(Wire.Reply.json(404, "{\"error\":{\"message\":\"not scripted: " + path + "\"}}"), null);
        }
        if (!wire.isTurn(request, json)) {
            return new Answer(wire.side(request, json), null);
        }
        Step step = next();
        return new Answer(wire.reply(step, json), step);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
