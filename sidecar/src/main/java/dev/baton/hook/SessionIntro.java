package dev.baton.hook;

/** What an agent is told when its session starts: what Baton does, who it is to Baton, and how to ask for a file. */
final class SessionIntro {

    private SessionIntro() {
    }

    /** @param key the session's key when it was issued just now, else null (it is issued once, at registration) */
    static String text(String sessionId, String key) {
        String identity = key == null
                ? "Your Baton session is " + sessionId + " (its key was issued when it first registered)."
                : "Your Baton session is " + sessionId + "; its key is " + key
                        + " (shown once: keep it to prove this session's identity to Baton).";
        return "Baton coordinates the AI coding agents editing this repository, so that no agent overwrites another's"
                + " work. Each file you edit is locked for this session; at the end of your turn the files that are"
                + " clean in git are released, the others stay yours until the session ends. An edit of a file held by"
                + " another session is blocked, and the message says who holds it and since when. "
                + identity
                + " To ask the holder for a file, run `baton negotiate FILE --reason \"why you need it\"`; to see"
                + " whether a file is free before starting on it, run `baton check FILE`.";
    }
}
