package dev.baton.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The five agent CLIs at pinned versions, installed from npm once into {@code <e2e.cache>/<hash of versions>}
 * and reused by later runs. A file lock keeps two builds from installing into one directory at once.
 */
public final class AgentClis {

    /** OpenCode's version, which its config directories' {@code @opencode-ai/plugin} is pinned to as well. */
    public static final String OPENCODE_VERSION = "1.18.33";

    static final List<String> PACKAGES = List.of(
            "@anthropic-ai/claude-code@2.1.332",
            "@github/copilot@1.0.102",
            "@openai/codex@0.171.0",
            "@google/gemini-cli@0.61.0",
            "opencode-ai@" + OPENCODE_VERSION);

    private static Path installed;

    private AgentClis() {}

    /** The directory of the CLIs' executables, installing them first if this set of versions is new. */
    static synchronized Path binDir() {
        if (installed == null) {
            installed = install();
        }
        return installed.resolve("node_modules/.bin");
    }

    public static Path bin(String name) {
        return binDir().resolve(name);
    }

    @SuppressWarnings("try") // the lock is held for the block's length, not used in it
    private static Path install() {
        Path root = Path.of(System.getProperty("e2e.cache",
                System.getProperty("user.home") + "/.cache/baton-e2e"));
        Path dir = root.resolve(versionsHash());
        Path done = dir.resolve(".installed");
        try {
            Files.createDirectories(root);
            try (FileChannel channel = FileChannel.open(root.resolve(".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
                if (Files.exists(done)) {
                    return dir;
                }
                Files.createDirectories(dir);
                List<String> command = new ArrayList<>(List.of("npm", "install", "--no-audit", "--no-fund",
                        "--no-save", "--loglevel=error", "--prefix", dir.toString()));
                command.addAll(PACKAGES);
                Process npm = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                        .redirectOutput(dir.resolve("npm-install.log").toFile()).start();
                if (!npm.waitFor(15, TimeUnit.MINUTES) || npm.exitValue() != 0) {
                    npm.destroyForcibly();
                    throw new IllegalStateException("npm install of " + PACKAGES + " failed; see "
                            + dir.resolve("npm-install.log") + ":\n" + Files.readString(dir.resolve("npm-install.log")));
                }
                Files.writeString(done, String.join("\n", PACKAGES) + "\n");
                return dir;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing the agent CLIs", e);
        }
    }

    private static String versionsHash() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(String.join("\n", PACKAGES).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
