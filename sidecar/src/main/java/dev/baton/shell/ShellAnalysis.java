package dev.baton.shell;

import java.util.List;

/**
 * What a command line will write, as far as its text tells.
 *
 * @param writes files and trees named on the command line
 * @param git git commands judged against the repository's state
 * @param unknown parts whose writes cannot be known beforehand (scripts, {@code python -c}, {@code eval},
 *                variables in a target); Baton finds what they changed afterwards
 * @param commands every simple command, as written, for allow and deny lists
 */
public record ShellAnalysis(List<WriteTarget> writes, List<GitCommand> git, List<String> unknown,
                            List<List<String>> commands) {

    public ShellAnalysis {
        writes = List.copyOf(writes);
        git = List.copyOf(git);
        unknown = List.copyOf(unknown);
        commands = List.copyOf(commands);
    }

    /** Nothing is written that Baton must know about: the command passes without a trace. */
    public boolean readOnly() {
        return writes.isEmpty() && git.isEmpty() && unknown.isEmpty();
    }
}
