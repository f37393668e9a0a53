package dev.baton.server;

import dev.baton.Baton;
import dev.baton.deadlock.Deadlocks;
import dev.baton.events.EventStream;
import dev.baton.hook.DeniedEditListener;
import dev.baton.hook.HookNotices;
import dev.baton.negotiation.Negotiation;
import dev.baton.negotiation.NegotiationChange;
import dev.baton.negotiation.NegotiationRows;
import dev.baton.negotiation.NegotiationView;
import dev.baton.negotiation.PendingRequest;
import dev.baton.state.Change;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Connects modules that do not know each other: negotiations become wait-for edges, denied hook
 * edits become waits, and the agent's next hook call carries coordination notices and deadlock
 * advice. Kept in the wiring layer so that coordination, deadlocks and hooks stay independent.
 */
final class ModuleBridges {

    private ModuleBridges() {
    }

    /** Open negotiations are edges requester → holder from the moment they open until they close. */
    static void negotiationsAsWaits(Baton baton, Deadlocks deadlocks) {
        baton.ledger().addInterceptor((tx, changes) -> {
            for (Change change : changes) {
                // A request is its requester's wait, on the requester's machine (in a team, its machine shares it).
                if (change instanceof NegotiationChange.NegotiationSaved saved && !saved.negotiation().requesterElsewhere()) {
                    Negotiation n = saved.negotiation();
                    if (n.isOpen()) {
                        deadlocks.negotiationOpened(tx, n.requesterId(), n.file());
                    } else {
                        deadlocks.negotiationClosed(tx, n.requesterId(), n.file(), n.resolution());
                    }
                }
            }
        });
        // Waits live in memory: the negotiations still open after a restart are edges again.
        List<PendingRequest> open = baton.negotiations().pendingRequests();
        if (!open.isEmpty()) {
            baton.ledger().write(tx -> {
                open.forEach(request -> deadlocks.negotiationOpened(tx, request.requester(), request.file()));
                return null;
            });
        }
    }

    static DeniedEditListener deniedEditsAsWaits(Deadlocks deadlocks) {
        return (sessionId, file, holder) -> deadlocks.editDenied(sessionId, file);
    }

    /** Requests, answers and messages first, then the deadlock instruction and the cycle note. */
    static HookNotices notices(Baton baton, Deadlocks deadlocks) {
        return sessionId -> {
            List<String> lines = new ArrayList<>(baton.notices().takeNotices(sessionId));
            deadlocks.takeAdvice(sessionId).ifPresent(advice -> lines.add(advice.text()));
            deadlocks.denyNote(sessionId).ifPresent(lines::add);
            return lines;
        };
    }

    static void negotiationsInSnapshot(Baton baton, EventStream events) {
        events.snapshotSection("negotiations", world -> {
            Instant now = baton.clock().instant();
            return world.rows(NegotiationRows.NEGOTIATIONS).stream()
                    .filter(Negotiation::isOpen)
                    .sorted(Comparator.comparing(Negotiation::createdAt))
                    .map(n -> NegotiationView.of(world, n, now))
                    .toList();
        });
    }
}
