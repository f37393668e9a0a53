package dev.baton.team;

import java.time.Instant;

/** What the team database keeps of a session that claims a file, so that other machines can name it. */
record ClaimingSession(String id, String agent, String name, String plan, Long pid, String cwd, Instant startedAt) {
}
