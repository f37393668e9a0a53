package dev.baton.lock;

import dev.baton.liveness.HolderLiveness;
import dev.baton.liveness.Liveness;
import dev.baton.session.ProcessIdentity;
import dev.baton.state.BatonException;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Exclusive locks on names (jobs, migrations), held by a process; a dead holder's lock is free. */
public final class NamedLockTable {

    public static final int MAX_NAME_LENGTH = 200;
    private static final Duration RECHECK = Duration.ofMillis(250);

    private final Ledger ledger;
    private final HolderLiveness liveness;

    public NamedLockTable(Ledger ledger, HolderLiveness liveness) {
        this.ledger = ledger;
        this.liveness = liveness;
    }

    public NamedLockOutcome acquire(String name, ProcessIdentity holder, String host, String purpose, Duration wait) {
        requireValidName(name);
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Ledger.Tracked<NamedLockOutcome> attempt = ledger.writeTracked(tx -> tryAcquire(tx, name, holder, host, purpose));
            if (attempt.value().acquired() || System.nanoTime() >= deadline) {
                return attempt.value();
            }
            try {
                ledger.awaitChange(attempt.version(), Math.min(deadline, System.nanoTime() + RECHECK.toNanos()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return attempt.value();
            }
        }
    }

    private NamedLockOutcome tryAcquire(Transaction tx, String name, ProcessIdentity holder, String host, String purpose) {
        Optional<NamedLock> current = tx.world().find(LockRows.NAMED, name);
        if (current.isPresent()) {
            NamedLock held = current.get();
            Liveness alive = liveness.processOf(held.holder());
            if (!alive.isGone()) {
                return new NamedLockOutcome(held.holder().pid() == holder.pid() && sameStart(held.holder(), holder),
                        held, alive.wireName());
            }
            LockRows.removeNamed(tx, held, ReleaseReason.HOLDER_EXITED);
            tx.audit("release", null, "name:" + name, ReleaseReason.HOLDER_EXITED.wireName(), null);
        }
        NamedLock lock = new NamedLock(name, holder, host, tx.now(), purpose);
        LockRows.saveNamed(tx, lock);
        tx.audit("acquire", null, "name:" + name, null, "pid " + holder.pid());
        return new NamedLockOutcome(true, lock, Liveness.ALIVE.wireName());
    }

    /** Releases the name if {@code pid} holds it; false when it did not (idempotent). */
    public boolean release(String name, long pid) {
        requireValidName(name);
        return ledger.write(tx -> tx.world().find(LockRows.NAMED, name)
                .filter(lock -> lock.holder().pid() == pid)
                .map(lock -> {
                    LockRows.removeNamed(tx, lock, ReleaseReason.RELEASED);
                    tx.audit("release", null, "name:" + name, ReleaseReason.RELEASED.wireName(), "pid " + pid);
                    return true;
                })
                .orElse(false));
    }

    public List<NamedLock> list() {
        return ledger.read(world -> world.rows(LockRows.NAMED).stream().sorted(Comparator.comparing(NamedLock::name))
                .toList());
    }

    public String aliveness(NamedLock lock) {
        return liveness.processOf(lock.holder()).wireName();
    }

    /** Frees named locks whose process is gone; returns their names. */
    public List<String> cleanupStale() {
        return ledger.write(tx -> tx.world().rows(LockRows.NAMED).stream().toList().stream()
                .filter(lock -> liveness.processOf(lock.holder()).isGone())
                .map(lock -> {
                    LockRows.removeNamed(tx, lock, ReleaseReason.HOLDER_EXITED);
                    tx.audit("release", null, "name:" + lock.name(), ReleaseReason.HOLDER_EXITED.wireName(), null);
                    return lock.name();
                })
                .toList());
    }

    private static boolean sameStart(ProcessIdentity a, ProcessIdentity b) {
        return a.startedAt() == null || b.startedAt() == null || a.startedAt().equals(b.startedAt());
    }

    private static void requireValidName(String name) {
        if (name == null || name.isBlank()) {
            throw BatonException.invalid("a lock name is empty");
        }
        if (name.length() > MAX_NAME_LENGTH || name.chars().anyMatch(Character::isISOControl)) {
            throw BatonException.invalid("a lock name must be at most " + MAX_NAME_LENGTH + " printable characters");
        }
    }
}
