package dev.baton.session;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/** Walks a live process's parents, as the operating system reports them, to find a given process among them. */
public final class ProcessAncestry {

    /** Start instants come from clock ticks since boot; allow for rounding between readers. */
    private static final Duration START_TOLERANCE = Duration.ofSeconds(1);
    private static final int MAX_DEPTH = 64;

    private ProcessAncestry() {
    }

    /**
     * True when {@code caller} is running with its recorded start instant and {@code ancestor} is it or one of
     * its ancestors, with the same start instant. A process whose start instant is unknown on either side is
     * never a match: a pid alone may have been reused.
     */
    public static boolean descendsFrom(ProcessIdentity caller, ProcessIdentity ancestor) {
        if (caller == null || ancestor == null || caller.startedAt() == null || ancestor.startedAt() == null) {
            return false;
        }
        return ancestry(caller).anyMatch(process -> sameProcess(process, ancestor));
    }

    /**
     * {@code process} and its ancestors, nearest first, each with its start instant as the operating system reports
     * it; empty when {@code process} is not running with its recorded start instant.
     */
    public static List<ProcessIdentity> lineage(ProcessIdentity process) {
        return ancestry(process).toList();
    }

    /**
     * {@link #lineage} read only as far as the stream is consumed: a caller looking for the nearest ancestor with
     * some property reads no process above it.
     */
    public static Stream<ProcessIdentity> ancestry(ProcessIdentity process) {
        if (process == null || process.startedAt() == null) {
            return Stream.empty();
        }
        if (ProcStat.available()) {
            Optional<ProcStat> first = ProcStat.of(process.pid())
                    .filter(stat -> !stat.exited() && sameStart(process.startedAt(), stat.started()));
            return Stream.iterate(first, Optional::isPresent, current -> current.get().parent() > 0
                            ? ProcStat.of(current.get().parent()) : Optional.empty())
                    .limit(MAX_DEPTH).map(stat -> stat.get().identity());
        }
        Optional<ProcessHandle> first = ProcessHandle.of(process.pid())
                .filter(handle -> sameStart(process.startedAt(), handle.info().startInstant().orElse(null)));
        return Stream.iterate(first, current -> current.isPresent() && current.get().pid() > 0,
                        current -> current.get().parent())
                .limit(MAX_DEPTH).map(handle -> new ProcessIdentity(handle.get().pid(),
                        handle.get().info().startInstant().orElse(null)));
    }

    /** Whether the process runs now, with its recorded start instant. */
    public static boolean isRunning(ProcessIdentity process) {
        return ancestry(process).findFirst().isPresent();
    }

    /** Whether two identities name one process: the same pid started at the same instant (both known). */
    public static boolean sameProcess(ProcessIdentity a, ProcessIdentity b) {
        return a != null && b != null && a.pid() == b.pid() && sameStart(a.startedAt(), b.startedAt());
    }

    /**
     * The agent's process and every process below it: where a call from its shell comes from. Lazy, like
     * {@link #children}: listing descendants reads every process's status, and a peer already found reads no hints.
     */
    public static LongStream selfAndDescendants(ProcessIdentity process) {
        if (process == null) {
            return LongStream.empty();
        }
        return LongStream.concat(LongStream.of(process.pid()), LongStream.of(process.pid()).flatMap(pid ->
                ProcessHandle.of(pid).map(handle -> handle.descendants().mapToLong(ProcessHandle::pid)).orElse(LongStream.empty())));
    }

    /**
     * Children of a process: the hook script is a child of the process it names as its parent. The JDK lists them
     * by reading every process's status, so the list is made only when the stream is first read.
     */
    public static LongStream children(long pid) {
        if (pid <= 0) {
            return LongStream.empty();
        }
        return LongStream.of(pid).flatMap(parent ->
                ProcessHandle.of(parent).map(handle -> handle.children().mapToLong(ProcessHandle::pid)).orElse(LongStream.empty()));
    }

    static boolean sameStart(Instant recorded, Instant actual) {
        if (recorded == null || actual == null) {
            return false;
        }
        return Duration.between(recorded, actual).abs().compareTo(START_TOLERANCE) <= 0;
    }
}
