package dev.baton.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * One process as {@code /proc/PID/stat} describes it: its state, its parent and its start instant, from a single
 * read. The JDK's {@code ProcessHandle.info()} reads four files and the user database for every process it is asked
 * about, which made walking an agent's ancestry cost a millisecond on every shell command; this reads one. The start
 * instant is computed as the JDK computes it on Linux (boot time from {@code /proc/stat} plus the start field in clock
 * ticks), so an identity recorded through either reader compares equal. Linux only: elsewhere {@link #available} is
 * false and callers use {@code ProcessHandle}.
 *
 * @param state the state letter ({@code R}, {@code S}, {@code Z} for a zombie, …)
 * @param parent the parent's pid (0 for the kernel's own)
 * @param tty the controlling terminal's device number ({@code tty_nr}, field 7; 0 for none)
 */
public record ProcStat(long pid, char state, long parent, int tty, Instant started) {

    private static final Path PROC = Path.of("/proc");
    /** USER_HZ, the unit of the start field: 100 on every Linux, whatever the kernel's own tick rate. */
    private static final long TICKS_PER_SECOND = 100;
    private static final long BOOT_MILLIS = bootMillis();

    /** Whether {@code /proc} can be read here. */
    public static boolean available() {
        return BOOT_MILLIS >= 0;
    }

    /** The process now, or empty when it does not exist (or {@code /proc} cannot be read). */
    public static Optional<ProcStat> of(long pid) {
        if (BOOT_MILLIS < 0 || pid <= 0) {
            return Optional.empty();
        }
        try {
            return parse(pid, new String(Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("stat")),
                    StandardCharsets.ISO_8859_1));
        } catch (IOException | RuntimeException gone) {
            return Optional.empty();
        }
    }

    /**
     * The fields after the command name, which may itself hold spaces and parentheses: state is field 3, parent 4,
     * terminal 7, start 22.
     */
    static Optional<ProcStat> parse(long pid, String stat) {
        int end = stat.lastIndexOf(')');
        if (end < 0 || end + 2 >= stat.length()) {
            return Optional.empty();
        }
        String[] fields = stat.substring(end + 2).trim().split(" ");
        if (fields.length < 20) {
            return Optional.empty();
        }
        long ticks = Long.parseLong(fields[19]);
        return Optional.of(new ProcStat(pid, fields[0].charAt(0), Long.parseLong(fields[1]), Integer.parseInt(fields[4]),
                Instant.ofEpochMilli(BOOT_MILLIS + ticks * 1000 / TICKS_PER_SECOND)));
    }

    /** Exited but not yet reaped, or being torn down: it holds nothing any more. */
    public boolean exited() {
        return state == 'Z' || state == 'X' || state == 'x';
    }

    /** The controlling terminal's device ({@code /dev/pts/N} or {@code /dev/ttyN}), or null for none or another kind. */
    public String terminal() {
        int major = (tty >> 8) & 0xfff;
        int minor = (tty & 0xff) | ((tty >> 12) & 0xfff00);
        if (major >= 136 && major <= 143) {
            return "/dev/pts/" + ((major - 136) * 256 + minor);
        }
        return major == 4 ? "/dev/tty" + minor : null;
    }

    public ProcessIdentity identity() {
        return new ProcessIdentity(pid, started);
    }

    private static long bootMillis() {
        try {
            for (String line : Files.readAllLines(PROC.resolve("stat"), StandardCharsets.ISO_8859_1)) {
                if (line.startsWith("btime ")) {
                    return Long.parseLong(line.substring(6).trim()) * 1000;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc not mounted
        }
        return -1;
    }
}
