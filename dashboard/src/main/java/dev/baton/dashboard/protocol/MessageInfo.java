package dev.baton.dashboard.protocol;

import com.fasterxml.jackson.annotation.JsonAlias;
import java.time.Instant;

/** A message between sessions ({@code to} is a session id or {@code *}); the text comes from the REST inbox. */
public record MessageInfo(String id, String from, String to, @JsonAlias({"sent_at", "created_at"}) Instant at,
                          @JsonAlias("body") String text, Boolean read) {

    public MessageInfo withoutText() {
        return new MessageInfo(id, from, to, at, null, read);
    }
}
