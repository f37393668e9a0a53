package dev.baton.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.baton.support.ChildProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one-read view of {@code /proc/PID/stat} against the JDK's own: identities recorded through either must name
 * the same process, and the ancestry walked with it must be the one the JDK walks.
 */
class ProcStatTest {

    @Test
    void aRealChildsParentAndStartAreWhatTheJdkReports() {
        assumeThat(ProcStat.available()).isTrue();
        try (ChildProcess child = ChildProcess.sleeping()) {
            ProcessHandle handle = ProcessHandle.of(child.pid()).orElseThrow();

            ProcStat stat = ProcStat.of(child.pid()).orElseThrow();

            assertThat(stat.parent()).isEqualTo(ProcessHandle.current().pid());
            assertThat(stat.started()).isEqualTo(handle.info().startInstant().orElseThrow());
            assertThat(stat.exited()).isFalse();
        }
    }

    @Test
    void aCommandNameWithSpacesAndParenthesesDoesNotShiftTheFields() {
        String line = "4121 (a) b (c) d) S 4000 4121 4121 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 123456 1000 200 "
                + "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";

        ProcStat stat = ProcStat.parse(4121, line).orElseThrow();

        assertThat(stat.state()).isEqualTo('S');
        assertThat(stat.parent()).isEqualTo(4000);
        assertThat(stat.started()).isEqualTo(ProcStat.parse(1, "1 (x) S 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 123456 0 0")
                .orElseThrow().started());
        assertThat(ProcStat.parse(1, "1 (truncated) S 0 1")).isEmpty();
        assertThat(stat.terminal()).as("tty_nr 0").isNull();
    }

    @Test
    void theTerminalIsNamedFromItsDeviceNumber() {
        String pts3 = "7 (bash) S 6 7 7 " + (136 << 8 | 3) + " 7 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0";
        String pts260 = "7 (bash) S 6 7 7 " + (137 << 8 | 4) + " 7 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0";
        String tty2 = "7 (agetty) S 1 7 7 " + (4 << 8 | 2) + " 7 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0";

        assertThat(ProcStat.parse(7, pts3).orElseThrow().terminal()).isEqualTo("/dev/pts/3");
        assertThat(ProcStat.parse(7, pts260).orElseThrow().terminal()).isEqualTo("/dev/pts/260");
        assertThat(ProcStat.parse(7, tty2).orElseThrow().terminal()).isEqualTo("/dev/tty2");
    }

    @Test
    void theAncestryOfAGrandchildIsItsShellThenThisProcessThenTheJdksAncestors() throws Exception {
        assumeThat(ProcStat.available()).isTrue();
        Process shell = new ProcessBuilder("sh", "-c", "sleep 300 & echo $!; wait").start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8))) {
            long sleeper = Long.parseLong(out.readLine().trim());
            ProcessIdentity grandchild = ProcessIdentity.ofRunning(sleeper);

            List<ProcessIdentity> lineage = ProcessAncestry.lineage(grandchild);

            assertThat(lineage).extracting(ProcessIdentity::pid).startsWith(sleeper, shell.pid(), ProcessHandle.current().pid());
            ProcessIdentity self = ProcessIdentity.current();
            assertThat(lineage).anyMatch(process -> ProcessAncestry.sameProcess(process, self));
            assertThat(ProcessAncestry.descendsFrom(grandchild, self)).isTrue();
            assertThat(ProcessAncestry.descendsFrom(self, grandchild)).isFalse();
            assertThat(ProcessAncestry.isRunning(grandchild)).isTrue();
            assertThat(ProcessAncestry.isRunning(new ProcessIdentity(sleeper, grandchild.startedAt().minusSeconds(60))))
                    .as("the pid with another start instant is another process").isFalse();
        } finally {
            shell.descendants().forEach(ProcessHandle::destroyForcibly);
            shell.destroyForcibly().waitFor();
        }
    }
}
