import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The hook benchmark's trivial server: on 127.0.0.1, one thread, it reads a request's head and body and answers
 * at once with the reply of an edit that goes through (status 200, exit 0, no body), then closes. It stands for
 * a sidecar that does no work, so the floor script against it measures bash and the loopback round trip alone.
 *   java bench/hook/FloorServer.java PORT_FILE   (writes the port it listens on to PORT_FILE)
 */
public final class FloorServer {

    private static final byte[] REPLY = ("HTTP/1.0 200 OK\r\nX-Baton-Exit: 0\r\nContent-Length: 0\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);

    public static void main(String[] args) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Path portFile = Path.of(args[0]);
            Path partial = Path.of(args[0] + ".tmp");
            Files.writeString(partial, Integer.toString(server.getLocalPort()));
            Files.move(partial, portFile);
            byte[] buffer = new byte[1 << 16];
            while (true) {
                try (Socket socket = server.accept()) {
                    readRequest(socket.getInputStream(), buffer);
                    OutputStream out = socket.getOutputStream();
                    out.write(REPLY);
                    out.flush();
                } catch (java.io.IOException e) {
                    // a client that went away: serve the next one
                }
            }
        }
    }

    /** Reads up to the end of the head, then as many body bytes as Content-Length names. */
    private static void readRequest(InputStream in, byte[] buffer) throws java.io.IOException {
        int filled = 0;
        int headEnd = -1;
        while (headEnd < 0) {
            int n = in.read(buffer, filled, buffer.length - filled);
            if (n < 0) {
                return;
            }
            filled += n;
            headEnd = indexOfBlankLine(buffer, filled);
            if (filled == buffer.length && headEnd < 0) {
                return;
            }
        }
        String head = new String(buffer, 0, headEnd, StandardCharsets.ISO_8859_1).toLowerCase();
        int at = head.indexOf("content-length:");
        long length = 0;
        if (at >= 0) {
            int end = head.indexOf('\r', at);
            length = Long.parseLong(head.substring(at + 15, end < 0 ? head.length() : end).trim());
        }
        long left = length - (filled - headEnd - 4);
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                return;
            }
            left -= n;
        }
    }

    private static int indexOfBlankLine(byte[] buffer, int filled) {
        for (int i = 0; i + 3 < filled; i++) {
            if (buffer[i] == '\r' && buffer[i + 1] == '\n' && buffer[i + 2] == '\r' && buffer[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
