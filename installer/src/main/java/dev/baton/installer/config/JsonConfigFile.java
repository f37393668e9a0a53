package dev.baton.installer.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.layout.InstallerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Set;

/**
 * One JSON configuration file of an agent, in the syntax that agent accepts ({@link JsonSyntax}). Reads refuse
 * anything but a JSON object the agent itself would load; writes are atomic, keep the file's permissions and its
 * comments, skip files whose content would not change, and save the pristine original once ({@link ConfigBackup}).
 */
public final class JsonConfigFile {

    private static final Set<PosixFilePermission> SHARED_MODE = PosixFilePermissions.fromString("rw-r--r--");
    private static final Set<PosixFilePermission> SECRET_MODE = PosixFilePermissions.fromString("rw-------");

    private final Path path;
    private final Set<PosixFilePermission> newFileMode;
    private final boolean keepsBackup;
    private final String owner;
    private final JsonSyntax syntax;

    private JsonConfigFile(Path path, Set<PosixFilePermission> newFileMode, boolean keepsBackup, String owner,
                           JsonSyntax syntax) {
        this.path = path;
        this.newFileMode = newFileMode;
        this.keepsBackup = keepsBackup;
        this.owner = owner;
        this.syntax = syntax;
    }

    /**
     * A file the user or agent owns, readable by others when Baton has to create it.
     *
     * @param owner  the agent that reads it, as named to the user
     * @param syntax what that agent's parser accepts
     */
    public static JsonConfigFile shared(Path path, String owner, JsonSyntax syntax) {
        return new JsonConfigFile(path, SHARED_MODE, true, owner, syntax);
    }

    /** A file the user owns that holds (or may hold) the sidecar's token: made owner-only when Baton writes it. */
    public static JsonConfigFile secret(Path path, String owner, JsonSyntax syntax) {
        return new JsonConfigFile(path, SECRET_MODE, true, owner, syntax);
    }

    /** A file only Baton writes, so there is no original worth keeping. */
    public static JsonConfigFile owned(Path path) {
        return new JsonConfigFile(path, SHARED_MODE, false, "Baton", JsonSyntax.PLAIN);
    }

    public Path path() {
        return path;
    }

    public boolean isSecret() {
        return newFileMode.equals(SECRET_MODE);
    }

    public ConfigBackup backup() {
        return new ConfigBackup(path);
    }

    public boolean hasBackup() {
        return keepsBackup && backup().exists();
    }

    /** The current content; a missing file reads as an empty object. */
    public Snapshot read() throws InstallerException {
        if (!Files.exists(path)) {
            return new Snapshot(JsonText.MAPPER.createObjectNode(), null);
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new InstallerException("Cannot read " + path + ": " + e.getMessage(), e);
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        try {
            return new Snapshot(JsonText.parseObject(text, syntax), bytes);
        } catch (JsonText.InvalidJson e) {
            throw new InstallerException("Refusing to edit " + path + ": " + whyNot(text, e)
                    + ", then run the command again; nothing was changed.");
        }
    }

    /**
     * Why the file cannot be read, and the fix. A comment or trailing comma its agent does not accept is named as
     * such: the agent does not load the file either, which is worth more to the user than the parser's words.
     */
    private String whyNot(String text, JsonText.InvalidJson e) {
        if (syntax != JsonSyntax.COMMENTS_AND_TRAILING_COMMAS && parses(text, JsonSyntax.COMMENTS_AND_TRAILING_COMMAS)) {
            // The first thing the stricter parser stumbled on is a comment or a trailing comma; Jackson says which.
            String what = e.reason().contains("comment") ? "a comment" : "a trailing comma";
            return "it has " + what + (e.position().isEmpty() ? "" : " at " + e.position()) + ", and " + owner
                    + " reads this file as " + syntax.description() + ", so " + owner
                    + " does not load it as it is either. Take its "
                    + (syntax == JsonSyntax.PLAIN ? "comments and trailing commas" : "trailing commas") + " out";
        }
        return "it is not a valid JSON object (" + e.getMessage() + "). Fix or move the file";
    }

    private static boolean parses(String text, JsonSyntax syntax) {
        try {
            JsonText.parseObject(text, syntax);
            return true;
        } catch (JsonText.InvalidJson e) {
            return false;
        }
    }

    /** The current bytes without judging them, for a file that is about to be deleted anyway. */
    public Snapshot readUnparsed() throws InstallerException {
        try {
            byte[] bytes = Files.exists(path) ? Files.readAllBytes(path) : null;
            return new Snapshot(JsonText.MAPPER.createObjectNode(), bytes);
        } catch (IOException e) {
            throw new InstallerException("Cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code after} unless it equals what {@code before} holds. When {@code after} is exactly the
     * backed-up original, the original bytes come back verbatim and the backup is retired.
     */
    public Outcome write(Snapshot before, ObjectNode after) throws IOException, InstallerException {
        return write(before, after, true);
    }

    /** @param saveOriginal whether a file without a backup gets one first (install: yes; uninstall: no) */
    public Outcome write(Snapshot before, ObjectNode after, boolean saveOriginal) throws IOException, InstallerException {
        if (before.exists() && before.tree().equals(after)) {
            return Outcome.UNCHANGED;
        }
        // Edit the target of a symlinked dotfile rather than replacing the link with a plain file.
        Path target = before.exists() ? path.toRealPath() : path;
        byte[] original = keepsBackup ? readBackupMatching(after) : null;
        byte[] content = original != null ? original : edited(before, after).getBytes(StandardCharsets.UTF_8);
        if (saveOriginal && original == null && keepsBackup && before.exists()) {
            backup().saveOnce(target);
        }
        ensureUnchangedSince(before, target);
        Set<PosixFilePermission> mode = before.exists() ? Files.getPosixFilePermissions(target) : newFileMode;
        if (newFileMode.equals(SECRET_MODE)) {
            mode = SECRET_MODE; // it holds (or may come to hold) the token, whatever mode it had
        }
        replaceAtomically(target, content, mode);
        if (original != null) {
            backup().delete();
            return Outcome.RESTORED;
        }
        return before.exists() ? Outcome.UPDATED : Outcome.CREATED;
    }

    /** Deletes the file; its backup, if any, goes with it since nothing is left to restore into. */
    public Outcome delete(Snapshot before) throws IOException, InstallerException {
        if (!before.exists()) {
            return Outcome.UNCHANGED;
        }
        ensureUnchangedSince(before, path);
        Files.deleteIfExists(path);
        return Outcome.DELETED;
    }

    /**
     * The new text: the old one with only Baton's entries spliced in or out, so the user's layout and escapes
     * stay; a file Baton creates is laid out as the agents lay out theirs. Should the splice ever not read back
     * as {@code after}, the whole tree is rendered instead, for a right file matters more than a pretty one.
     */
    private String edited(Snapshot before, ObjectNode after) {
        if (!before.exists()) {
            return JsonText.render(after);
        }
        try {
            String text = JsonTextEdit.apply(new String(before.bytes(), StandardCharsets.UTF_8), before.tree(), after,
                    syntax);
            if (JsonText.parseObject(text, syntax).equals(after)) {
                return text;
            }
        } catch (IOException | JsonText.InvalidJson | RuntimeException e) {
            // rendered whole below
        }
        return JsonText.render(after);
    }

    private byte[] readBackupMatching(ObjectNode after) throws IOException {
        byte[] bytes = backup().read();
        if (bytes == null) {
            return null;
        }
        try {
            return JsonText.parseObject(new String(bytes, StandardCharsets.UTF_8), syntax).equals(after) ? bytes : null;
        } catch (JsonText.InvalidJson e) {
            return null;
        }
    }

    // Agents rewrite their own files (Claude Code updates ~/.claude.json while it runs); never overwrite a
    // change made between our read and our write.
    private void ensureUnchangedSince(Snapshot before, Path target) throws IOException, InstallerException {
        byte[] now;
        try {
            now = Files.readAllBytes(target);
        } catch (NoSuchFileException e) {
            now = null;
        }
        if (!Arrays.equals(now, before.bytes())) {
            throw new InstallerException(path + " changed while Baton was editing it; nothing was written to it."
                    + " Run the command again.");
        }
    }

    private static void replaceAtomically(Path target, byte[] content, Set<PosixFilePermission> mode)
            throws IOException {
        Files.createDirectories(target.getParent());
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
        try {
            Files.write(temp, content);
            Files.setPosixFilePermissions(temp, mode);
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
    }

    /** A file's content at the time it was read; {@code bytes} is null when the file did not exist. */
    public record Snapshot(ObjectNode tree, byte[] bytes) {
        public boolean exists() {
            return bytes != null;
        }

        public ObjectNode editableCopy() {
            return tree.deepCopy();
        }
    }

    /** What a write or delete did to the file. */
    public enum Outcome {
        CREATED("created"),
        UPDATED("updated"),
        RESTORED("restored"),
        DELETED("deleted"),
        UNCHANGED("unchanged");

        final String verb;

        Outcome(String verb) {
            this.verb = verb;
        }
    }
}
