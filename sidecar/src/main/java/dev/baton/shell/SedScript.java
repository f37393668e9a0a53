package dev.baton.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a sed script writes besides its output: the files of its {@code w}/{@code W} commands and of {@code s///w}
 * flags, and whether it runs commands ({@code e}, {@code s///e}). Read line by line as sed reads its commands; a
 * script this reading cannot follow counts as one that may write anywhere.
 */
final class SedScript {

    /** An address: a line number, $, or a /regex/ (with escapes). */
    private static final String ADDRESS = "(?:\\d+(?:~\\d+)?|\\$|/(?:[^/\\\\]|\\\\.)*/[IM]*|\\\\(.)(?:(?!\\2).)*\\2)";
    private static final Pattern WRITE = Pattern.compile("(?:^|[;{}])\\s*(?:" + ADDRESS + "(?:\\s*,\\s*" + ADDRESS
            + ")?)?\\s*!?\\s*[wW]\\s*(\\S[^\\n]*?)\\s*$");
    private static final Pattern SUBSTITUTE_FLAGS = Pattern.compile("s(.)(?:(?!\\1)[^\\\\]|\\\\.)*\\1(?:(?!\\1)[^\\\\]|\\\\.)*\\1([gpiIme0-9]*)(w\\s*(\\S.*))?$");

    /** The files the script writes; null when it runs commands or cannot be followed. */
    static List<String> writes(String script) {
        List<String> files = new ArrayList<>();
        for (String line : script.split("\n")) {
            String command = line.strip();
            if (command.isEmpty() || command.startsWith("#")) {
                continue;
            }
            Matcher substitute = SUBSTITUTE_FLAGS.matcher(command);
            if (substitute.find()) {
                if (substitute.group(2).contains("e")) {
                    return null;
                }
                if (substitute.group(4) != null) {
                    files.add(substitute.group(4).strip());
                }
                continue;
            }
            if (command.matches("(?s).*(?:^|[;{}\\s\\d$/])e(?:\\s|;|$).*") || command.matches("(?s)^e\\b.*")) {
                return null;
            }
            Matcher write = WRITE.matcher(command);
            if (write.find()) {
                files.add(write.group(write.groupCount()));
            } else if (command.matches("(?s).*(?:^|[;{}\\s\\d$/])[wW]\\s*\\S.*")) {
                return null; // a w command this reading does not follow
            }
        }
        return files;
    }
}
