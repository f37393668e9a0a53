package dev.baton.team;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many statements this sidecar sent to the team database, by kind, since it started: what {@code baton team
 * status} shows and the benchmarks read (a re-entrant edit sends none, a new lock one claim, a lease one renewal).
 */
final class StatementCounts {

    final AtomicLong claims = new AtomicLong();
    final AtomicLong releases = new AtomicLong();
    final AtomicLong renewals = new AtomicLong();
    final AtomicLong eventReads = new AtomicLong();
    final AtomicLong prunes = new AtomicLong();
    final AtomicLong waitShares = new AtomicLong();
    final AtomicLong waitReads = new AtomicLong();

    Map<String, Long> snapshot() {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("claims", claims.get());
        counts.put("releases", releases.get());
        counts.put("renewals", renewals.get());
        counts.put("event_reads", eventReads.get());
        counts.put("prunes", prunes.get());
        counts.put("wait_shares", waitShares.get());
        counts.put("wait_reads", waitReads.get());
        return counts;
    }
}
