package dev.baton.shell;

import dev.baton.lock.HeldMessage;
import dev.baton.lock.Holder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What agents read about their shell commands: why one was denied (the part of it that writes, the file, its holder
 * and the next step), and that one changed another session's file. Files are shown relative to the directory the
 * command ran in where they are below it, as denials of edits show them, so a suggested command works as printed.
 */
final class ShellDenial {

    private static final int SHOWN_COMMAND_LENGTH = 200;

    private ShellDenial() {
    }

    /** A file a part of the command writes, and who holds it. */
    record Blocked(String file, Holder holder, String part) {
    }

    /** The denial of a command that writes held files ({@code blocked}) or runs git commands judged unsafe. */
    static String of(List<Blocked> blocked, List<String> gitReasons, Path cwd, Instant now) {
        Map<String, List<Blocked>> byPart = blocked.stream()
                .collect(Collectors.groupingBy(Blocked::part, LinkedHashMap::new, Collectors.toList()));
        List<String> sentences = new ArrayList<>();
        byPart.forEach((part, files) -> sentences.add("`" + shorten(part) + "` would write " + files.stream()
                .map(b -> {
                    String shown = shown(b.file(), cwd);
                    return shown + ", which is " + HeldMessage.heldBy(b.holder(), now) + "; " + HeldMessage.askFor(shown);
                })
                .collect(Collectors.joining(". It would also write ")) + "."));
        sentences.addAll(gitReasons);
        StringBuilder text = new StringBuilder("Baton blocked this command: ").append(String.join(" ", sentences));
        if (!blocked.isEmpty()) {
            text.append(" Nothing of it ran, and no file was locked for it.");
        }
        return text.toString();
    }

    /** What the writer reads when its command changed a file another session holds. */
    static String toWriter(String command, String file, String holder, String where, Path cwd, boolean holderBusy) {
        String shown = shown(file, cwd);
        return "Baton: your command `" + shorten(command) + "` changed the " + where + " of " + shown + ", which session "
                + HeldMessage.shortId(holder) + " holds" + (holderBusy ? " (and was changing itself meanwhile)" : "")
                + "; it has been told. Do not change that file again without asking for it (`baton negotiate "
                + HeldMessage.quoted(shown) + " --reason \"…\"`).";
    }

    /** What the holder reads on its next hook call. */
    static String toHolder(String command, String file, String writer, String where, Path cwd) {
        return "Baton: the " + where + " of your file " + shown(file, cwd) + " was changed by session "
                + HeldMessage.shortId(writer) + "'s command `" + shorten(command) + "`. Check it before you edit it again.";
    }

    static String holderText(Holder holder) {
        return "held by " + (holder.agent() == null ? "session " : holder.agent() + " session ")
                + HeldMessage.shortId(holder.session()) + (holder.pid() == null ? "" : ", pid " + holder.pid());
    }

    /** {@code file} relative to {@code base} when it is below it, else absolute. */
    static String shown(String file, Path base) {
        Path path = Path.of(file);
        return base != null && path.startsWith(base) && !path.equals(base) ? base.relativize(path).toString() : file;
    }

    static String quoted(String file) {
        return file.matches("[A-Za-z0-9_./@+-]+") ? file : "'" + file.replace("'", "'\\''") + "'";
    }

    static String shorten(String command) {
        String oneLine = command.strip().replace('\n', ' ');
        return oneLine.length() <= SHOWN_COMMAND_LENGTH ? oneLine : oneLine.substring(0, SHOWN_COMMAND_LENGTH - 1) + "…";
    }
}
