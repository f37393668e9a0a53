package dev.baton.bench;

import dev.baton.http.Callers;
import dev.baton.http.Json;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal blocking HTTP/1.1 keep-alive client for load generation. Written by hand because on a
 * 2-core machine the JDK client's async machinery would cost more CPU than the server under test,
 * and the figures would measure the client.
 */
final class RawHttpClient implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final String host;
    private final String token;

    RawHttpClient(int port, String token) throws IOException {
        this.socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        this.out = socket.getOutputStream();
        this.in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        this.host = "127.0.0.1:" + port;
        this.token = token;
    }

    /** The key of the session this client acts for, sent with every request once known. */
    private String key;

    /** Registers the session (or finds it registered) and acts for it from now on, with the key it was issued. */
    void register(String session) throws IOException {
        int status = send("POST", "/v1/sessions", "{\"session_id\":\"" + session + "\",\"agent\":\"api\"}");
        if (status != 201) {
            throw new IOException("registering " + session + " answered " + status + ": " + lastBody);
        }
        key = Json.mapper().readTree(lastBody).path("key").asText();
    }

    /** Sends a request and returns the status; the body is read and kept in {@link #lastBody}. */
    int send(String method, String path, String json) throws IOException {
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        String head = method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + token
                + (key == null ? "" : "\r\n" + Callers.KEY_HEADER + ": " + key)
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        return readResponse();
    }

    String lastBody = "";

    private int readResponse() throws IOException {
        String status = readLine();
        int code = Integer.parseInt(status.substring(9, 12));
        int length = -1;
        boolean chunked = false;
        String line;
        while (!(line = readLine()).isEmpty()) {
            String lower = line.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        if (chunked) {
            StringBuilder body = new StringBuilder();
            while (true) {
                int size = Integer.parseInt(readLine().trim(), 16);
                if (size == 0) {
                    readLine();
                    break;
                }
                body.append(new String(in.readNBytes(size), StandardCharsets.UTF_8));
                readLine();
            }
            lastBody = body.toString();
        } else {
            lastBody = new String(in.readNBytes(Math.max(length, 0)), StandardCharsets.UTF_8);
        }
        return code;
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                break;
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        if (c == -1 && line.length() == 0) {
            throw new IOException("connection closed");
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
