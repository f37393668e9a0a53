package dev.baton.deadlock;

import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.World;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedSet;
import java.util.stream.Collectors;

/**
 * The sentences about a deadlock: the instruction its victim gets on its next hook call, and the
 * note every member's deny message carries. Files are shown relative to the reader's repository.
 */
final class DeadlockText {

    private DeadlockText() {
    }

    static DeadlockAdvice advice(Deadlock deadlock, Cycle cycle, World world, TeamWaits team) {
        String victim = deadlock.victim();
        SortedSet<String> files = cycle.filesWaitedBy(cycle.previous(victim));
        Session reader = world.find(SessionRows.SESSIONS, victim).orElse(null);
        String shown = shownList(files, reader);
        String text = "Baton found a deadlock (" + deadlock.id() + "): " + describe(cycle, world, team, reader)
                + ". You are the youngest session in it, so you are asked to give way: release " + shown
                + " now (`baton release " + shownFiles(files, reader).stream().map(DeadlockText::quoted)
                .collect(Collectors.joining(" ")) + "`), work on something else,"
                + " and ask for the files again later.";
        return new DeadlockAdvice(deadlock.id(), List.copyOf(files), text);
    }

    static String note(Deadlock deadlock, Cycle cycle, World world, TeamWaits team) {
        String victim = deadlock.victim();
        SortedSet<String> files = cycle.filesWaitedBy(cycle.previous(victim));
        Session reader = world.find(SessionRows.SESSIONS, victim).orElse(null);
        return "This is part of a deadlock (" + deadlock.id() + "): " + describe(cycle, world, team, reader) + ". Session "
                + who(victim, world, team) + ", the youngest, has been asked to release " + shownList(files, reader) + ".";
    }

    /** "claude session 3f2a1b2c waits for src/B.java, held by claude session 9c1e4d5f; 9c1e… waits for …". */
    static String describe(Cycle cycle, World world, TeamWaits team, Session reader) {
        List<String> steps = new ArrayList<>();
        for (String session : cycle.sessions()) {
            steps.add(who(session, world, team) + " waits for " + shownList(cycle.filesWaitedBy(session), reader)
                    + ", held by " + who(cycle.next(session), world, team));
        }
        return String.join("; ", steps);
    }

    private static String who(String sessionId, World world, TeamWaits team) {
        TeamWaits.Member member = team.members().get(sessionId);
        if (member != null && !member.machine().equals(team.machine())) {
            return described(member.agent(), Session.shortId(member.session()), member.name()) + " on machine "
                    + member.machine();
        }
        String shortId = Session.shortId(sessionId);
        return world.find(SessionRows.SESSIONS, sessionId)
                .map(s -> described(s.agent().wireName(), shortId, s.name()))
                .orElse(shortId);
    }

    private static String described(String agent, String shortId, String name) {
        return (agent == null ? "" : agent + " ") + shortId + (name == null || name.isBlank() ? "" : " \"" + name + "\"");
    }

    private static String shownList(Collection<String> files, Session reader) {
        return String.join(", ", shownFiles(files, reader));
    }

    private static List<String> shownFiles(Collection<String> files, Session reader) {
        String base = reader == null ? null : reader.repoRoot() != null ? reader.repoRoot() : reader.cwd();
        return files.stream().map(file -> shown(file, base)).collect(Collectors.toList());
    }

    private static String quoted(String file) {
        return file.matches("[A-Za-z0-9_./@+-]+") ? file : "'" + file.replace("'", "'\\''") + "'";
    }

    private static String shown(String file, String base) {
        if (base != null && file.startsWith(base + "/")) {
            return Path.of(base).relativize(Path.of(file)).toString();
        }
        return file;
    }
}
