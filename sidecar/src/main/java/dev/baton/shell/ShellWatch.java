package dev.baton.shell;

import dev.baton.Baton;
import dev.baton.session.SessionRows;
import dev.baton.state.BatonException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the read-only set of a running command in step with the lock table. The wrapper's binder, which stays beside
 * the command for as long as anything of it runs, asks for the next change of its plan; the answer waits until the
 * plan differs from the version the binder has (a file taken or released, a holder gone), at most {@link #LONGEST}.
 * Nothing is kept per watch but the wait itself: the ticket names the run, the directory and the sessions the command
 * acts for, so a restarted sidecar answers the same binder as the one that started it.
 */
public final class ShellWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShellWatch.class);

    /** How long one request waits for a change before it is answered with the plan as it is. */
    static final Duration LONGEST = Duration.ofSeconds(20);

    private final Baton baton;
    private final Enforcement enforcement;
    private final ShellGuard guard;
    private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService worker;
    private final AtomicBoolean recheckQueued = new AtomicBoolean();

    /** What a command's binder names on every request: its run, its directory and the sessions it acts for. */
    public record Ticket(String run, Path cwd, Set<String> sessions) {

        public Ticket {
            sessions = Set.copyOf(sessions);
        }

        /** The ticket as the wrapper carries it: one header value (base64url of its lines). */
        public String encoded() {
            String text = run + "\n" + (cwd == null ? "" : cwd.toString()) + "\n" + String.join("\n", sessions);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
        }

        public static Ticket decode(String encoded) {
            String text;
            try {
                text = new String(Base64.getUrlDecoder().decode(encoded.strip()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw BatonException.invalid("the watch ticket is not one Baton made");
            }
            String[] lines = text.split("\n", -1);
            if (lines.length < 2 || !lines[0].matches("[a-z0-9-]{1,100}") || !(lines[1].isEmpty() || lines[1].startsWith("/"))
                    || text.chars().anyMatch(c -> c < 0x20 && c != '\n')) {
                throw BatonException.invalid("the watch ticket is not one Baton made");
            }
            Set<String> sessions = new LinkedHashSet<>();
            for (int i = 2; i < lines.length; i++) {
                if (!lines[i].isEmpty()) {
                    sessions.add(lines[i]);
                }
            }
            return new Ticket(lines[0], lines[1].isEmpty() ? null : Path.of(lines[1]), sessions);
        }
    }

    /** A request waiting for its plan to change. */
    private record Waiter(Ticket ticket, String seen, CompletableFuture<Enforcement.Plan> answer) {
    }

    public ShellWatch(Baton baton, Enforcement enforcement, ShellGuard guard) {
        this.baton = baton;
        this.enforcement = enforcement;
        this.guard = guard;
        this.worker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "baton-shell-watch");
            thread.setDaemon(true);
            return thread;
        });
        baton.ledger().addListener(changes -> queueRecheck());
        baton.ledger().addCloseHook(this::close);
    }

    /**
     * The plan for the ticket's command once it differs from {@code seen} (at once when it already does), or as it
     * is after {@link #LONGEST}. {@code rebound} are files the binder had to bind again since its last request (their
     * holder replaced them): a change to one of them may not have been the holder's.
     */
    public CompletableFuture<Enforcement.Plan> next(Ticket ticket, String seen, List<String> rebound) {
        if (!rebound.isEmpty()) {
            guard.runUnprotects(ticket.run(), rebound);
        }
        Enforcement.Plan now = planOf(ticket);
        if (!now.version().equals(seen)) {
            return CompletableFuture.completedFuture(now);
        }
        Waiter waiter = new Waiter(ticket, seen, new CompletableFuture<>());
        waiting.add(waiter);
        worker.schedule(() -> {
            if (waiting.remove(waiter)) {
                waiter.answer().complete(planOf(ticket));
            }
        }, LONGEST.toMillis(), TimeUnit.MILLISECONDS);
        queueRecheck(); // a change between the plan above and joining the waiters is not missed
        return waiter.answer();
    }

    /** The sessions the ticket's command acts for, as they are now: those named, and their subagents. */
    private Enforcement.Plan planOf(Ticket ticket) {
        Set<String> own = baton.ledger().read(world -> {
            Set<String> sessions = new LinkedHashSet<>();
            for (String id : ticket.sessions()) {
                if (world.find(SessionRows.SESSIONS, id).isPresent()) {
                    sessions.add(id);
                    SessionRows.subagentsOf(world, id).forEach(sub -> sessions.add(sub.id()));
                }
            }
            return sessions;
        });
        Enforcement.Plan plan = enforcement.live(own, ticket.cwd());
        guard.runStillProtects(ticket.run(), plan.held());
        return plan;
    }

    /** One pass over the waiters after changes, however many came meanwhile. */
    private void queueRecheck() {
        if (waiting.isEmpty() || !recheckQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            worker.execute(() -> {
                recheckQueued.set(false);
                for (Waiter waiter : new ArrayList<>(waiting)) {
                    try {
                        Enforcement.Plan plan = planOf(waiter.ticket());
                        if (!plan.version().equals(waiter.seen()) && waiting.remove(waiter)) {
                            waiter.answer().complete(plan);
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("could not check a running command's read-only files: {}", e.toString());
                    }
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            recheckQueued.set(false); // closing
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
        waiting.forEach(waiter -> waiter.answer().cancel(false));
        waiting.clear();
    }
}
