package dev.baton.shell;

import dev.baton.lock.HeldMessage;
import dev.baton.lock.Holder;
import dev.baton.version.Versions;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What agents read about their shell commands: why one was denied (the part of it that writes, the file, its holder
 * and the next step; the deny list; a git command judged unsafe; another session's turn at the index), and that one
 * changed another session's file. Files are shown relative to the directory the
 * command ran in where they are below it, as denials of edits show them, so a suggested command works as printed.
 */
final class ShellWording {

    private static final int SHOWN_COMMAND_LENGTH = 200;

    private ShellWording() {
    }

    /** The denial of a command that writes held files ({@code blocked}) or runs git commands judged unsafe. */
    static String of(List<BlockedWrite> blocked, List<String> gitReasons, Path cwd, Instant now) {
        Map<String, List<BlockedWrite>> byPart = blocked.stream()
                .collect(Collectors.groupingBy(BlockedWrite::part, LinkedHashMap::new, Collectors.toList()));
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

    /** The denial of a command on the machine's deny list ({@code part}: the simple command that matched). */
    static String denyList(String part) {
        return "Baton denies `" + part + "`: it is on this machine's deny list (BATON_SHELL_DENY). Ask the"
                + " person supervising the agents if it must run.";
    }

    /** Why a write that plants code git runs ({@code path}) must wait: other sessions hold files in {@code repo}. */
    static String planted(String part, Path path, Path repo, List<BlockedWrite> inRepo) {
        return "`" + shorten(part) + "` would change what git runs in this repository ("
                + shown(path.toString(), repo) + ") while other sessions hold files there: "
                + inRepo.stream().map(b -> shown(b.file(), repo) + " (" + holderText(b.holder()) + ")")
                .collect(Collectors.joining(", "))
                + ". Ask the person supervising the agents to change it, or change it once the other sessions are done.";
    }

    /** Why an index-writing git command must wait: another session's git command writes the index of {@code repo}. */
    static String indexBusy(String part, Path repo, String purpose, long pid, String holderAlive) {
        return "Baton held back `" + shorten(part) + "`: another session's"
                + " git command is writing the index of " + repo + " (" + purpose + ", pid "
                + pid + ", " + holderAlive + "). Run it again in a moment.";
    }

    /**
     * Why a git command must not run: the held files it reaches ({@code blocked}, shown relative to {@code base}) and
     * what to run instead; {@code own} the session's own changed files, for a stage or commit.
     */
    static String gitReason(GitCommand git, List<BlockedWrite> blocked, Path base, List<String> own) {
        String heldText = blocked.stream().map(b -> shown(b.file(), base) + " (" + holderText(b.holder()) + ")")
                .collect(Collectors.joining(", "));
        String what = switch (git.effect()) {
            case DISCARD -> "would throw away uncommitted changes to files other sessions hold";
            case CLEAN -> "would delete untracked files other sessions hold";
            case STAGE -> "would stage files other sessions hold";
            case COMMIT -> "would commit files other sessions staged and hold";
            case COMMIT_ALL -> "would commit files other sessions hold";
            case SWITCH -> "would rewrite files other sessions hold";
            case UNSTAGE -> "would take changes other sessions staged out of the index";
            case INDEX -> "would change the staged copies of files other sessions hold";
            case PLANT -> "would make git run a program of its choosing in every session's git commands in this"
                    + " repository, where other sessions hold files";
            case OTHER -> "";
        };
        StringBuilder reason = new StringBuilder("`").append(shorten(git.part())).append("` ").append(what)
                .append(": ").append(heldText).append('.');
        if (git.effect() == GitCommand.Effect.STAGE || git.effect() == GitCommand.Effect.COMMIT
                || git.effect() == GitCommand.Effect.COMMIT_ALL) {
            if (own.isEmpty()) {
                reason.append(" None of the changed files is yours to commit.");
            } else if (git.effect() == GitCommand.Effect.STAGE) {
                reason.append(" Stage only your own files instead: `git add ").append(String.join(" ", own)).append("`.");
            } else {
                reason.append(" Commit only your own files instead: `git commit -m \"…\" -- ")
                        .append(String.join(" ", own)).append("`.");
            }
        } else if (git.effect() == GitCommand.Effect.PLANT) {
            reason.append(" Ask the person supervising the agents to set it, or set it once the other sessions are done.");
        } else {
            reason.append(" Name your own files instead (e.g. `git restore -- FILE`), or ask the holders to commit first.");
        }
        return reason.toString();
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
    static String toHolder(String command, String file, String writer, String where, Path cwd, boolean restorable) {
        String shown = shown(file, cwd);
        return "Baton: the " + where + " of your file " + shown + " was changed by session "
                + HeldMessage.shortId(writer) + "'s command `" + shorten(command) + "`. Check it before you edit it again"
                + (restorable ? "; `" + Versions.restoreCommand(shown) + "` puts your last version back." : ".");
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
