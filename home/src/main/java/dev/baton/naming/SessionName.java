package dev.baton.naming;

import java.util.regex.Pattern;

/**
 * How a person reads a session: by its agent and a short id, or by the name it was given. Every line, row and label
 * that names a session (the sidecar's messages and CLI, the wire's {@code label}, the dashboard) takes it
 * from here, so one session reads alike everywhere and never changes its name while it lives.
 */
public final class SessionName {

    /** A short id has at least this many characters, taken in whole words. */
    private static final int SHORTEST = 8;
    /** A word longer than this (a random token with no separators) is shown by its start only. */
    private static final int LONGEST_WORD = 16;
    private static final int WORD_START = 12;
    /** The agent name of a session a script registered through the API: no agent to name. */
    private static final String SCRIPT_AGENT = "api";
    /**
     * A time-ordered UUID (version 7): its first word is the start time in units of 65 s, alike for every session
     * started in the same minute, so the next word (the milliseconds) is shown too.
     */
    private static final Pattern TIME_ORDERED_UUID =
            Pattern.compile("\\p{XDigit}{8}-\\p{XDigit}{4}-7\\p{XDigit}{3}-\\p{XDigit}{4}-\\p{XDigit}{12}");

    private SessionName() {
    }

    /**
     * The id shortened at word boundaries ({@code -}, {@code _}, {@code .}): whole words until {@link #SHORTEST}
     * characters, never ending in a separator, so {@code c0p1l0t-5e55-…} reads {@code c0p1l0t-5e55}, not
     * {@code c0p1l0t-}. A subagent's id ({@code PARENT/AGENT}) keeps its agent part whole: two subagents of one parent,
     * and the parent itself, would otherwise look alike.
     */
    public static String shortId(String id) {
        if (id == null || id.isEmpty()) {
            return "?";
        }
        int slash = id.indexOf('/');
        if (slash > 0) {
            return shortId(id.substring(0, slash)) + id.substring(slash);
        }
        int shortest = TIME_ORDERED_UUID.matcher(id).matches() ? SHORTEST + 5 : SHORTEST;
        StringBuilder shown = new StringBuilder();
        int at = 0;
        while (at < id.length() && shown.length() < shortest) {
            if (at > 0) {
                shown.append(id.charAt(at - 1));
            }
            int end = at;
            while (end < id.length() && !separator(id.charAt(end))) {
                end++;
            }
            String word = id.substring(at, end);
            if (word.length() > LONGEST_WORD) {
                return shown.append(word, 0, WORD_START).append('…').toString();
            }
            shown.append(word);
            at = end + 1;
        }
        if (at >= id.length()) {
            return id;
        }
        int end = shown.length();
        while (end > 0 && separator(shown.charAt(end - 1))) { // runs of separators make empty words
            end--;
        }
        return end > 0 ? shown.substring(0, end) : id.length() <= LONGEST_WORD ? id : id.substring(0, WORD_START) + "…";
    }

    /**
     * The session as a person reads it: the name it was given, else its agent and short id
     * ({@code claude-code 3f2a9c1e}); a session of no known agent reads {@code session 3f2a9c1e}.
     */
    public static String of(String agent, String id, String name) {
        if (name != null && !name.isBlank()) {
            return name.strip();
        }
        String kind = agent == null || agent.isBlank() || agent.equals(SCRIPT_AGENT) ? "session" : agent;
        return kind + " " + shortId(id);
    }

    private static boolean separator(char c) {
        return c == '-' || c == '_' || c == '.';
    }
}
