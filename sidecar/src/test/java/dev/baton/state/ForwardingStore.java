package dev.baton.state;

import java.util.List;

/** A real store with the test's own commit in front of it; everything else goes straight through. */
abstract class ForwardingStore implements Store {

    protected final Store real;

    ForwardingStore(Store real) {
        this.real = real;
    }

    @Override
    public void commit(Batch batch) {
        real.commit(batch);
    }

    @Override
    public <K, R> List<R> load(RowKind<K, R> kind) {
        return real.load(kind);
    }

    @Override
    public List<AuditEntry> history(String file, long beforeId, int limit) {
        return real.history(file, beforeId, limit);
    }

    @Override
    public int pruneAudit(java.time.Instant before, long keepRows, int batch) {
        return real.pruneAudit(before, keepRows, batch);
    }

    @Override
    public List<AuditEntry> auditSince(long afterId, int limit) {
        return real.auditSince(afterId, limit);
    }

    @Override
    public List<EventRecord> eventsAfter(long afterSeq, int limit) {
        return real.eventsAfter(afterSeq, limit);
    }

    @Override
    public long oldestEventSeq() {
        return real.oldestEventSeq();
    }

    @Override
    public long newestEventSeq() {
        return real.newestEventSeq();
    }

    @Override
    public String describe() {
        return real.describe();
    }

    @Override
    public void close() {
        real.close();
    }
}
