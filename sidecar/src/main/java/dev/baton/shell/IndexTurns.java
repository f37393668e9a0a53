package dev.baton.shell;

import dev.baton.Baton;
import dev.baton.lock.NamedLockOutcome;
import dev.baton.session.ProcessIdentity;
import dev.baton.state.BatonException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Index-writing git commands of different sessions take turns per repository, through the named lock
 * {@code git-index:REPO}, held by the session's agent process from the command's start until its end.
 */
final class IndexTurns {

    private static final Logger LOG = LoggerFactory.getLogger(IndexTurns.class);

    /** One repository's turn, taken for a command. */
    record Turn(Path repo, String name, ProcessIdentity holder) {
    }

    /** The turns a command got, or why it must wait. */
    record Outcome(List<Turn> turns, String refusal) {
    }

    private final Baton baton;
    private final String host;
    private final Duration wait;

    IndexTurns(Baton baton, String host, Duration wait) {
        this.baton = baton;
        this.host = host;
        this.wait = wait;
    }

    /** Takes a turn in each repository ({@code parts}: the git command writing its index, by repository). */
    Outcome take(ProcessIdentity agent, List<Path> repos, List<String> parts) {
        List<Turn> turns = new ArrayList<>();
        for (int i = 0; i < repos.size(); i++) {
            Path repo = repos.get(i);
            String name = name(repo);
            NamedLockOutcome outcome = baton.namedLocks().acquire(name, agent, host,
                    "git index: " + ShellWording.shorten(parts.get(i)), wait);
            if (!outcome.acquired()) {
                turns.forEach(this::end);
                return new Outcome(List.of(), ShellWording.indexBusy(parts.get(i), repo, outcome.lock().purpose(),
                        outcome.lock().holder().pid(), outcome.holderAlive()));
            }
            turns.add(new Turn(repo, name, agent));
        }
        return new Outcome(turns, null);
    }

    void end(Turn turn) {
        try {
            baton.namedLocks().release(turn.name(), turn.holder().pid());
        } catch (BatonException e) {
            LOG.info("could not release {}: {}", turn.name(), e.getMessage());
        }
    }

    static String name(Path repo) {
        String name = "git-index:" + repo;
        return name.length() <= 200 ? name : "git-index:…" + name.substring(name.length() - 188);
    }
}
