package dev.baton.hook;

/**
 * What the hook script does with a reply: print {@code text} (already in the agent's format, possibly empty)
 * on stdout or stderr, and exit with {@code exitCode}.
 */
record HookOutput(int exitCode, boolean toStderr, String text) {

    static final HookOutput NOTHING = new HookOutput(0, false, "");

    static HookOutput stdout(String text) {
        return new HookOutput(0, false, text);
    }
}
