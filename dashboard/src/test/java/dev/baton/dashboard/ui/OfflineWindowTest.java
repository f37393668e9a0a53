package dev.baton.dashboard.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.DashboardWindow;
import dev.baton.dashboard.connection.ConnectionState;
import dev.baton.dashboard.view.Page;
import dev.baton.dashboard.viewmodel.Countdown;
import dev.baton.dashboard.viewmodel.NegotiationRow;
import dev.baton.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableCell;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real window, headless at 1280×800, against a real sidecar that is stopped and started again: what it shows while
 * the event stream is down. The dashboard's clock is a {@link MutableClock}, moved by hand.
 */
@ExtendWith(ApplicationExtension.class)
class OfflineWindowTest {

    private static final PseudoClass OFFLINE = PseudoClass.getPseudoClass("offline");

    @TempDir
    Path temp;

    private final MutableClock clock = MutableClock.startingNow();
    private LiveWindow live;
    private LiveSidecar sidecar;
    private DashboardWindow window;
    private Path repo;

    @Start
    void start(Stage stage) throws Exception {
        repo = Files.createDirectories(temp.resolve("repo")).toRealPath();
        live = LiveWindow.show(stage, temp, clock, false, Page.NEGOTIATIONS);
        sidecar = live.sidecar();
        window = live.window();
    }

    @BeforeEach
    void aNegotiationIsCountingDown() {
        String holder = sidecar.register("aaaaaaaa-holder", "holder", repo);
        String requester = sidecar.register("bbbbbbbb-asker", "asker", repo);
        sidecar.acquire(holder, repo.resolve("src/Shared.java"), 0);
        sidecar.negotiate(requester, repo.resolve("src/Shared.java"), "needs the new signature", "normal");
        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() -> window.model().negotiations().size() == 1
                && timeLeftCell(window) != null));
    }

    @AfterEach
    void stop() throws Exception {
        if (live != null) {
            live.close();
        }
    }

    @Test
    void whenTheSidecarStopsThePagesDimAndTheCountdownsStandStillUntilItIsBack(FxRobot robot) throws Exception {
        String before = onFx(() -> timeLeftCell(window));
        assertThat(onFx(() -> robot.lookup("#dashboard-root").query().getPseudoClassStates())).doesNotContain(OFFLINE);
        assertThat(onFx(() -> robot.lookup("#page-content").query().getOpacity())).isEqualTo(1.0);

        sidecar.stop();

        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() ->
                robot.lookup("#dashboard-root").query().getPseudoClassStates().contains(OFFLINE)));
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> robot.lookup("#page-content").query().getOpacity() < 0.6));
        clock.advance(Duration.ofMinutes(3));
        robot.interact(() -> window.model().tick());
        assertThat(onFx(() -> timeLeftCell(window))).as("the countdown stands still while offline").isEqualTo(before);

        sidecar.start();

        await().atMost(Duration.ofSeconds(15)).until(() -> onFx(() -> connectionState(robot))
                .equals(ConnectionState.CONNECTED.shown()));
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() ->
                !robot.lookup("#dashboard-root").query().getPseudoClassStates().contains(OFFLINE)
                        && robot.lookup("#page-content").query().getOpacity() == 1.0));
        NegotiationRow row = onFx(() -> window.model().negotiations().get(0));
        String expected = Countdown.of(row, clock.instant()).shown();
        assertThat(expected).isNotEqualTo(before);
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> timeLeftCell(window)).equals(expected));
    }

    @Test
    void whileOfflineTheStatusBarSaysSinceWhenAndWhenItRetriesWithNothingOfItCut(FxRobot robot) throws Exception {
        String droppedAt = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(clock.getZone()).format(clock.instant());
        robot.interact(() -> window.view().open(Page.LOCKS));
        sidecar.stop();
        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() ->
                robot.lookup("#dashboard-root").query().getPseudoClassStates().contains(OFFLINE)));
        // A supervisor action tried meanwhile fails with a long sentence of its own, beside the connection's.
        robot.interact(() -> robot.lookup("#locks-table").queryTableView().getSelectionModel().select(0));
        robot.clickOn("#force-release");
        robot.clickOn("#confirm-action");
        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() ->
                robot.lookup("#action-outcome").queryAs(Label.class).getText()).startsWith("Could not force-release"));

        await().atMost(Duration.ofSeconds(20)).until(() -> onFx(() -> connectionState(robot))
                .equals(ConnectionState.OFFLINE.shown()));
        clock.advance(Duration.ofMinutes(1));
        robot.interact(() -> window.model().tick());
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(onFx(() -> cut(robot, "#connection-state"))).isEmpty();
        assertThat(onFx(() -> robot.lookup("#connection-retry").queryAs(Label.class).getText()))
                .as("since the drop, not since the last attempt").matches("since " + droppedAt + " — retrying in \\d+ (ms|s)");
        assertThat(onFx(() -> robot.lookup("#connection-detail").queryAs(Label.class).getText()))
                .contains("no sidecar is running for " + sidecar.home()).contains("baton serve");
        assertThat(onFx(() -> cut(robot, "#connection-retry"))).isEmpty();
    }

    /** The labels among {@code queries} whose text is shown shortened ("O…" for "Offline"). */
    private static List<String> cut(FxRobot robot, String... queries) {
        return java.util.Arrays.stream(queries).map(query -> robot.lookup(query).queryAs(Label.class))
                .filter(label -> !(label.lookup(".text") instanceof Text shown) || !shown.getText().equals(label.getText()))
                .map(label -> label.getId() + ": " + label.getText() + " shown as "
                        + (label.lookup(".text") instanceof Text shown ? shown.getText() : "nothing"))
                .toList();
    }

    private static String connectionState(FxRobot robot) {
        return robot.lookup("#connection-state").queryAs(Label.class).getText();
    }

    /** The text of the negotiation's "Time left" cell, null until it is drawn. */
    private static String timeLeftCell(DashboardWindow window) {
        for (Node node : window.scene().getRoot().lookupAll("#negotiations-table .table-cell")) {
            TableCell<?, ?> cell = (TableCell<?, ?>) node;
            if ("Time left".equals(cell.getTableColumn().getText()) && cell.getTableRow() != null
                    && cell.getTableRow().getItem() != null && cell.getText() != null && !cell.getText().isEmpty()) {
                return ((Labeled) cell).getText();
            }
        }
        return null;
    }

    private static <T> T onFx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
    }
}
