package dev.baton.deadlock;

import java.util.List;

/** What the victim of a deadlock is told on its next hook call: which files to release, in a sentence. */
public record DeadlockAdvice(String deadlockId, List<String> files, String text) {

    public DeadlockAdvice {
        files = List.copyOf(files);
    }
}
