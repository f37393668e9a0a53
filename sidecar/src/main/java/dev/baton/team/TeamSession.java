package dev.baton.team;

/** A session of some machine of the team that holds files, as {@code baton team status} lists it. */
public record TeamSession(String machine, String session, String agent, String name, String plan, int locks) {
}
