package dev.baton.installer.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.regex.Pattern;

/** The shell command line an agent runs for one hook event, and how Baton recognises its own lines. */
public final class HookCommand {

    /** Any hook command containing this word is Baton's; install replaces such entries and uninstall removes them. */
    public static final String MARKER = "baton-hook";

    private static final Pattern PLAIN_WORD = Pattern.compile("[A-Za-z0-9_./+@%:,=-]+");

    private HookCommand() {
    }

    /** For example {@code /home/dev/.local/share/baton/hooks/baton-hook claude PreToolUse}. */
    public static String line(Path script, String dialect, String event) {
        return shellWord(script.toAbsolutePath().toString()) + " " + dialect + " " + event;
    }

    public static boolean isBatons(JsonNode command) {
        return command != null && command.isTextual() && command.textValue().contains(MARKER);
    }

    /** Quotes a word for a POSIX shell only when it needs it, so ordinary paths stay readable. */
    public static String shellWord(String word) {
        if (PLAIN_WORD.matcher(word).matches()) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
