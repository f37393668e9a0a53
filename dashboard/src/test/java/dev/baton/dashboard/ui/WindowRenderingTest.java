package dev.baton.dashboard.ui;

import static dev.baton.dashboard.WireFrames.REPO;
import static dev.baton.dashboard.WireFrames.frame;
import static dev.baton.dashboard.WireFrames.lock;
import static dev.baton.dashboard.WireFrames.negotiation;
import static dev.baton.dashboard.WireFrames.session;
import static dev.baton.dashboard.WireFrames.snapshot;
import static dev.baton.dashboard.WireFrames.waitOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.DashboardWindow;
import dev.baton.testing.MutableClock;
import dev.baton.dashboard.connection.SidecarLocator;
import dev.baton.dashboard.view.Page;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableRow;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real window fed with protocol frames straight into its model (no sidecar: the home is empty),
 * to check what the views draw: empty states, the red cycle, the countdown highlight.
 */
@ExtendWith(ApplicationExtension.class)
class WindowRenderingTest {

    private static final String A = "aaaaaaaa-1";
    private static final String B = "bbbbbbbb-2";

    @TempDir
    Path home;

    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T10:00:00Z"));
    private DashboardWindow window;

    @Start
    void start(Stage stage) {
        window = new DashboardWindow(SidecarLocator.home(home), clock, false);
        window.show(stage, 1280, 800, Page.OVERVIEW);
    }

    @AfterEach
    void stop() throws Exception {
        WaitForAsyncUtils.asyncFx(window::close).get(10, TimeUnit.SECONDS);
    }

    @Test
    void withoutASidecarTheWindowSaysOfflineAndHowToStartOne(FxRobot robot) {
        await().atMost(Duration.ofSeconds(5)).until(() -> "Offline".equals(text(robot, "#connection-state")));

        assertThat(text(robot, "#connection-detail")).contains("no sidecar is running for " + home).contains("baton serve");
        assertThat(robot.lookup(".empty-title").queryAll()).extracting(n -> ((Label) n).getText())
                .contains("Not connected to a sidecar");
    }

    @Test
    void anEmptySidecarSaysHowToGetAgentsGoing(FxRobot robot) {
        robot.interact(() -> window.model().apply(List.of(frame(snapshot(0, "", "", "", "", "")))));
        robot.interact(() -> window.view().open(Page.SESSIONS));

        assertThat(robot.lookup("#sessions-page .empty-title").queryAs(Label.class).getText())
                .isEqualTo("No agents yet — run `baton install` and start Claude Code");
    }

    @Test
    void aDeadlockIsDrawnAsRedArrowsWithTheVictimMarked(FxRobot robot) {
        robot.interact(() -> window.model().apply(List.of(frame(snapshot(3,
                session(A, "auth", "2025-01-01T09:00:00Z") + "," + session(B, "billing", "2025-01-01T09:30:00Z"),
                lock("a.txt", A, "2025-01-01T09:50:00Z", false) + "," + lock("b.txt", B, "2025-01-01T09:50:00Z", false),
                waitOf(A, B, "b.txt") + "," + waitOf(B, A, "a.txt"), "",
                "{\"id\":\"d1\",\"sessions\":[\"" + A + "\",\"" + B + "\"],\"files\":[\"" + REPO + "/b.txt\",\"" + REPO
                        + "/a.txt\"],\"victim\":\"" + B + "\",\"detected_at\":\"2025-01-01T10:00:00Z\"}")))));

        assertThat(robot.lookup(".graph-edge.deadlock").queryAll()).hasSize(2);
        Node victim = robot.lookup(".graph-node.victim").query();
        assertThat(robot.from(victim).lookup(".graph-node-name").queryAs(Label.class).getText()).isEqualTo("billing");
        assertThat(robot.lookup("#deadlock-list .deadlock-card").queryAs(Label.class).getText())
                .contains("auth → billing → auth").contains("victim: billing");
    }

    @Test
    void graphNodesStayPutWhenAWaitAppears(FxRobot robot) {
        robot.interact(() -> window.model().apply(List.of(frame(snapshot(1,
                session(A, "auth", "2025-01-01T09:00:00Z") + "," + session(B, "billing", "2025-01-01T09:30:00Z"),
                "", "", "", "")))));
        double before = robot.lookup("#node-" + A).query().getLayoutX();

        robot.interact(() -> window.model().apply(List.of(frame(dev.baton.dashboard.WireFrames.event(2, "wait.started",
                "{\"wait\":" + waitOf(A, B, "b.txt") + "}")))));

        assertThat(robot.lookup(".graph-edge").queryAll()).hasSize(1);
        assertThat(robot.lookup("#node-" + A).query().getLayoutX()).isEqualTo(before);
    }

    @Test
    void aNegotiationNearItsTimeoutIsHighlighted(FxRobot robot) {
        robot.interact(() -> window.model().apply(List.of(frame(snapshot(1, session(A, null, "2025-01-01T09:00:00Z"), "", "",
                negotiation("n1", "pending", "2025-01-01T10:00:00Z", "2025-01-01T10:05:00Z"), "")))));
        robot.interact(() -> window.view().open(Page.NEGOTIATIONS));
        PseudoClass near = PseudoClass.getPseudoClass("near");
        assertThat(firstRow(robot).getPseudoClassStates()).doesNotContain(near);

        clock.advance(Duration.ofMinutes(4));
        robot.interact(() -> window.model().tick());

        assertThat(firstRow(robot).getPseudoClassStates()).contains(near);
        assertThat(robot.lookup("#negotiations-table .table-cell").queryAll().stream()
                .map(cell -> ((javafx.scene.control.Labeled) cell).getText())).contains("1:00");
    }

    private static TableRow<?> firstRow(FxRobot robot) {
        return robot.lookup("#negotiations-table .table-row-cell").queryAll().stream()
                .map(n -> (TableRow<?>) n).filter(r -> r.getItem() != null).findFirst().orElseThrow();
    }

    private static String text(FxRobot robot, String query) {
        try {
            return WaitForAsyncUtils.asyncFx(() -> robot.lookup(query).queryAs(Label.class).getText()).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
