package dev.baton.deadlock;

import java.time.Instant;

/** A wait as clients see it: with the file's current holder (null while the file is free). */
public record WaitView(String waiter, String holder, String file, String kind, Instant since) {
}
