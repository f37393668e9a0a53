package dev.baton.shell;

import java.util.List;

/** A parsed command line: simple commands grouped as the shell runs them. */
sealed interface ShellNode permits ShellNode.Simple, ShellNode.Group, ShellNode.Opaque {

    /**
     * One simple command.
     *
     * @param assignments {@code NAME=value} words in front of the command
     * @param words the command and its arguments
     * @param substitutions command and process substitutions inside its words, each a script of its own run in a
     *                      subshell
     * @param source the command as written, for messages
     */
    record Simple(List<Word> assignments, List<Word> words, List<Redirect> redirects, List<List<ShellNode>> substitutions, String source)
            implements ShellNode {
    }

    /**
     * Commands run together: a {@code ( … )} subshell or a pipeline (a {@code cd} inside does not outlive it) or a
     * {@code { …; }} group (it does), with redirections applying to all of them.
     */
    record Group(List<ShellNode> body, boolean subshell, List<Redirect> redirects) implements ShellNode {
    }

    /** Syntax this parser does not follow (case, function definitions, unbalanced quotes); nothing inside is known. */
    record Opaque(String reason, String source) implements ShellNode {
    }
}
