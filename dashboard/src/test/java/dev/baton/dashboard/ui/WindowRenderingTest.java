package dev.baton.dashboard.ui;

import static dev.baton.dashboard.WireFrames.deadlockedPair;
import static dev.baton.dashboard.WireFrames.frame;
import static dev.baton.dashboard.WireFrames.lockInCopy;
import static dev.baton.dashboard.WireFrames.negotiation;
import static dev.baton.dashboard.WireFrames.session;
import static dev.baton.dashboard.WireFrames.sessionIn;
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
import javafx.scene.control.TableCell;
import javafx.scene.control.TableRow;
import javafx.scene.paint.Color;
import javafx.scene.shape.Line;
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
 * to check what the views draw: empty states, the red cycle, the countdown highlight, a file changed in two copies.
 */
@ExtendWith(ApplicationExtension.class)
class WindowRenderingTest {

    private static final String A = "aaaaaaaa-1";
    private static final String B = "bbbbbbbb-2";
    private static final String MAIN = "/work/app";
    private static final String FEATURE = "/work/app-feature";

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
        robot.interact(() -> window.model().apply(List.of(frame(deadlockedPair(A, B)))));

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

    @Test
    void aFileChangedInTwoWorktreesNamesTheOtherCopyInTheLocksTableWithItsWholePathInATooltip(FxRobot robot) {
        robot.interact(() -> window.model().apply(List.of(frame(snapshot(1, twoWorktreeSessions(), twoWorktreeLocks(), "", "", "")))));
        robot.interact(() -> window.view().open(Page.LOCKS));

        await().atMost(Duration.ofSeconds(5)).until(() -> alsoChangedInCells(robot).size() == 2);
        List<TableCell<?, ?>> cells = alsoChangedInCells(robot);
        assertThat(cells).extracting(TableCell::getText).containsExactlyInAnyOrder(
                "app-feature (branch feature-b) by claude-code bbbbbbbb", "app (branch main) by claude-code aaaaaaaa");
        assertThat(cells).extracting(cell -> cell.getTooltip().getText()).containsExactlyInAnyOrder(
                FEATURE + " (branch feature-b) by claude-code session " + B, MAIN + " (branch main) by claude-code session " + A);
    }

    @Test
    void twoSessionsChangingOneFileInTwoWorktreesAreJoinedByADashedAmberLineLabelledWithItsPath(FxRobot robot) {
        robot.interact(() -> window.model().apply(List.of(frame(snapshot(1, twoWorktreeSessions(), twoWorktreeLocks(), "", "", "")))));

        // The line exists once the model has the pair; its colour and dashes come with the next pulse's styling.
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> robot.lookup(".graph-overlap").queryAll().size() == 1
                && !((Line) robot.lookup(".graph-overlap").query()).getStrokeDashArray().isEmpty()));
        Line line = robot.lookup(".graph-overlap").query();
        Color stroke = (Color) line.getStroke();
        assertThat(stroke.getRed()).as("amber: %s", stroke).isGreaterThan(0.5);
        assertThat(stroke.getGreen()).as("amber: %s", stroke).isBetween(0.3, stroke.getRed());
        assertThat(stroke.getBlue()).as("amber: %s", stroke).isLessThan(0.3);
        assertThat(robot.lookup(".graph-overlap-label").queryAs(Label.class).getText()).isEqualTo("src/App.java");
        assertThat(robot.lookup(".graph-edge").queryAll()).as("nobody waits").isEmpty();
        assertThat(robot.lookup("#overlap-" + A + "-" + B).tryQuery()).isPresent();
    }

    private static String twoWorktreeSessions() {
        return sessionIn(A, MAIN, "2025-01-01T09:00:00Z") + "," + sessionIn(B, FEATURE, "2025-01-01T09:30:00Z");
    }

    private static String twoWorktreeLocks() {
        return lockInCopy(MAIN, "src/App.java", A, "origin:github.com/o/r", "main") + ","
                + lockInCopy(FEATURE, "src/App.java", B, "origin:github.com/o/r", "feature-b");
    }

    private static List<TableCell<?, ?>> alsoChangedInCells(FxRobot robot) {
        return onFx(() -> robot.lookup("#locks-table .table-cell").queryAll().stream()
                .<TableCell<?, ?>>map(n -> (TableCell<?, ?>) n)
                .filter(cell -> "Also changed in".equals(cell.getTableColumn().getText()) && cell.getTableRow() != null
                        && cell.getTableRow().getItem() != null && cell.getText() != null && !cell.getText().isEmpty()
                        && cell.getTooltip() != null)
                .toList());
    }

    private static TableRow<?> firstRow(FxRobot robot) {
        return robot.lookup("#negotiations-table .table-row-cell").queryAll().stream()
                .map(n -> (TableRow<?>) n).filter(r -> r.getItem() != null).findFirst().orElseThrow();
    }

    private static String text(FxRobot robot, String query) {
        return onFx(() -> robot.lookup(query).queryAs(Label.class).getText());
    }

    private static <T> T onFx(java.util.concurrent.Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
