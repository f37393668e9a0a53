package dev.baton.dashboard.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.DashboardWindow;
import dev.baton.dashboard.view.Page;
import dev.baton.dashboard.viewmodel.LockRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
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

/** The real window, headless, driven from the keyboard against a real sidecar on port 0. */
@ExtendWith(ApplicationExtension.class)
class KeyboardWindowTest {

    private static final List<KeyCode> DIGITS = List.of(KeyCode.DIGIT1, KeyCode.DIGIT2, KeyCode.DIGIT3, KeyCode.DIGIT4,
            KeyCode.DIGIT5, KeyCode.DIGIT6);

    @TempDir
    Path temp;

    private LiveWindow live;
    private LiveSidecar sidecar;
    private DashboardWindow window;
    private Path repo;

    @Start
    void start(Stage stage) throws Exception {
        repo = Files.createDirectories(temp.resolve("repo")).toRealPath();
        live = LiveWindow.show(stage, temp, Clock.systemUTC(), true, Page.OVERVIEW);
        sidecar = live.sidecar();
        window = live.window();
    }

    @BeforeEach
    void waitForTheFirstSnapshot() {
        live.awaitFirstSnapshot();
    }

    @AfterEach
    void stop() throws Exception {
        if (live != null) {
            live.close();
        }
    }

    @Test
    void ctrlAndANumberOpensThePageListedAtThatPlaceInTheSidebar(FxRobot robot) throws Exception {
        List<String> listed = onFx(() -> robot.lookup("#nav").queryListView().getItems().stream()
                .map(page -> ((Page) page).title()).toList());
        assertThat(listed).containsExactly("Overview", "Sessions", "Locks", "Negotiations", "Messages", "Activity");
        robot.clickOn("#page-title");

        for (int place = DIGITS.size(); place >= 1; place--) {
            robot.press(KeyCode.CONTROL).press(DIGITS.get(place - 1)).release(DIGITS.get(place - 1)).release(KeyCode.CONTROL);
            WaitForAsyncUtils.waitForFxEvents();

            assertThat(onFx(() -> robot.lookup("#page-title").queryAs(Label.class).getText()))
                    .as("Ctrl+%d", place).isEqualTo(listed.get(place - 1));
        }
        // From inside a filter box too: the shortcut is the window's, not the list's.
        robot.clickOn("#overview-negotiations-filter");
        robot.press(KeyCode.CONTROL).press(KeyCode.DIGIT3).release(KeyCode.DIGIT3).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(onFx(() -> robot.lookup("#page-title").queryAs(Label.class).getText())).isEqualTo("Locks");
    }

    @Test
    void deleteOnASelectedLockAsksFirstAndTheConfirmedReleaseFreesItOnTheSidecar(FxRobot robot) throws Exception {
        Path file = heldFileSelectedOnTheLocksPage(robot, "cccccccc-delete", "src/Router.java");

        robot.type(KeyCode.DELETE);

        assertThat(onFx(() -> robot.lookup("#confirmation").query().isVisible())).isTrue();
        assertThat(onFx(() -> robot.lookup("#confirmation-question").queryAs(Label.class).getText()))
                .contains(file.toString()).contains("crashed-agent");
        assertThat(sidecar.locks().path("locks")).as("nothing is freed before the answer").hasSize(1);

        robot.clickOn("#confirm-action");

        await().atMost(Duration.ofSeconds(5)).until(() -> sidecar.locks().path("locks").isEmpty());
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> locksTable(robot).getItems().isEmpty()));
    }

    @Test
    void deleteThenCancelLeavesTheLockHeld(FxRobot robot) throws Exception {
        heldFileSelectedOnTheLocksPage(robot, "dddddddd-keep", "keep.txt");

        robot.type(KeyCode.DELETE);
        assertThat(onFx(() -> robot.lookup("#confirmation").query().isVisible())).isTrue();
        robot.clickOn("#cancel-action");
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(onFx(() -> robot.lookup("#confirmation").query().isVisible())).isFalse();
        assertThat(sidecar.locks().path("locks")).hasSize(1);
        assertThat(onFx(() -> locksTable(robot).getItems().size())).isEqualTo(1);
    }

    /** A lock held by a session of the sidecar, selected in the Locks table, which has the focus. */
    private Path heldFileSelectedOnTheLocksPage(FxRobot robot, String sessionId, String name) throws Exception {
        String session = sidecar.register(sessionId, "crashed-agent", repo);
        Path file = repo.resolve(name);
        sidecar.acquire(session, file, 0);
        robot.interact(() -> window.view().open(Page.LOCKS));
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> locksTable(robot).getItems().stream()
                .map(LockRow::shownFile).toList()).contains(name));
        robot.interact(() -> {
            locksTable(robot).getSelectionModel().select(0);
            locksTable(robot).requestFocus();
        });
        return file;
    }

    private static TableView<LockRow> locksTable(FxRobot robot) {
        return robot.lookup("#locks-table").queryTableView();
    }

    private static <T> T onFx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
    }
}
