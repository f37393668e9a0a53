package dev.baton.message;

import java.util.List;

/** Which messages a mark-read changed, and which were read already (not an error). */
public record ReadOutcome(List<Long> marked, List<Long> alreadyRead) {
}
