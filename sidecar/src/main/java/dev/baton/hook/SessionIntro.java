package dev.baton.hook;

/** What an agent is told when its session starts: what Baton does, who it is to Baton, and how to ask for a file. */
final class SessionIntro {

    private SessionIntro() {
    }

    /**
     * The session's key is never part of it: what an agent is told ends up in its conversation's transcript, and whoever
     * reads that would hold the key. The agent needs none: Baton knows its calls by their process.
     */
    static String text(String sessionId) {
        String identity = "Your Baton session is " + sessionId + "; Baton knows your hooks, your shell's `baton`"
                + " commands and your Baton MCP tools as this session by their process.";
        return "Baton coordinates the AI coding agents editing this repository, so that no agent overwrites another's"
                + " work. Each file you edit is locked for this session; at the end of your turn the files that are"
                + " clean in git are released, the others stay yours until the session ends. An edit of a file held by"
                + " another session is blocked, and the message says who holds it and since when. "
                + identity
                + " To ask the holder for a file, run `baton negotiate FILE --reason \"why you need it\"`; to see"
                + " whether a file is free before starting on it, run `baton check FILE`.";
    }
}
