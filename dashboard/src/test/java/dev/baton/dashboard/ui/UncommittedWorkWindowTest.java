package dev.baton.dashboard.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.DashboardWindow;
import dev.baton.dashboard.view.Page;
import dev.baton.dashboard.viewmodel.LockRow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
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
 * A held file's uncommitted work, as the supervisor sees it before handing the file on: the Locks page's Changes
 * column, and the force-release question, against a real sidecar and a real git repository.
 */
@ExtendWith(ApplicationExtension.class)
class UncommittedWorkWindowTest {

    @TempDir
    Path temp;

    private LiveWindow live;
    private LiveSidecar sidecar;
    private DashboardWindow window;
    private GitCopies repo;

    @Start
    void start(Stage stage) throws Exception {
        repo = GitCopies.create(temp.resolve("repo"), "src/Clean.java", "src/Dirty.java");
        live = LiveWindow.show(stage, temp, Clock.systemUTC(), false, Page.LOCKS);
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
    void aDirtyHeldFileIsMarkedAndItsForceReleaseWarnsThatTheWorkIsHandedOn(FxRobot robot) throws Exception {
        String session = sidecar.register("aaaaaaaa-dirty", "claude-code", "worker", repo.main());
        sidecar.acquire(session, repo.main().resolve("src/Clean.java"), 0);
        sidecar.acquire(session, repo.main().resolve("src/Dirty.java"), 0);
        Files.writeString(repo.main().resolve("src/Dirty.java"), "unfinished work\n", StandardCharsets.UTF_8);

        // No event says a file was written: the page learns it from git, at the latest one poll later.
        await().atMost(Duration.ofSeconds(30)).until(() -> onFx(() -> changes(robot))
                .equals(Map.of("src/Clean.java", "none", "src/Dirty.java", "uncommitted")));

        assertThat(question(robot, "src/Dirty.java")).contains("held by worker (claude-code")
                .contains("Its uncommitted changes stay in the file: the next holder starts from them");
        assertThat(question(robot, "src/Clean.java")).doesNotContain("uncommitted");
        assertThat(sidecar.locks().path("locks")).as("asking frees nothing").hasSize(2);
    }

    @Test
    void aHeldFilesChangesAndHistoryOpenFromItsRow(FxRobot robot) throws Exception {
        String session = sidecar.register("bbbbbbbb-reader", "claude-code", null, repo.main());
        sidecar.acquire(session, repo.main().resolve("src/Dirty.java"), 0);
        Files.writeString(repo.main().resolve("src/Dirty.java"), "unfinished work\n", StandardCharsets.UTF_8);
        await().atMost(Duration.ofSeconds(30)).until(() -> onFx(() -> changes(robot)).equals(Map.of("src/Dirty.java",
                "uncommitted")));

        assertThat(read(robot, "Show changes")).contains("-original content of src/Dirty.java").contains("+unfinished work");
        assertThat(read(robot, "Show history")).contains("bbbbbbbb-reader");
        assertThat(sidecar.locks().path("locks")).as("reading changes nothing").hasSize(1);
    }

    /** Fires {@code item} of the only row's context menu, waits for the text it shows, and closes it. */
    private String read(FxRobot robot, String item) throws Exception {
        // The row's own context menu, its item fired as a click fires it (a popup window is beyond the headless robot).
        robot.interact(() -> {
            locksTable(robot).getSelectionModel().select(0);
            // The row that shows the lock: a table also lays out empty rows, which have no menu.
            javafx.scene.control.TableRow<?> row = robot.lookup("#locks-table .table-row-cell")
                    .<javafx.scene.control.TableRow<?>>queryAll().stream()
                    .filter(shown -> !shown.isEmpty() && shown.getItem() != null).findFirst()
                    .orElseThrow(() -> new AssertionError("no row shows the lock"));
            row.getContextMenu().getItems().stream().filter(menuItem -> item.equals(menuItem.getText())).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + item + " in the row's menu")).fire();
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() ->
                !robot.lookup("#reading-text").queryAs(javafx.scene.control.TextArea.class).getText().isEmpty()));
        String text = onFx(() -> robot.lookup("#reading-text").queryAs(javafx.scene.control.TextArea.class).getText());
        robot.clickOn("#cancel-action");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(onFx(() -> robot.lookup("#confirmation").query().isVisible())).isFalse();
        return text;
    }

    /** Opens the force-release question of the row of {@code shownFile}, reads it and cancels. */
    private String question(FxRobot robot, String shownFile) throws Exception {
        robot.interact(() -> {
            TableView<LockRow> table = locksTable(robot);
            table.getItems().stream().filter(row -> row.shownFile().equals(shownFile)).findFirst()
                    .ifPresent(row -> table.getSelectionModel().select(row));
        });
        robot.clickOn("#force-release");
        WaitForAsyncUtils.waitForFxEvents();
        String question = onFx(() -> robot.lookup("#confirmation-question").queryAs(Label.class).getText());
        robot.clickOn("#cancel-action");
        WaitForAsyncUtils.waitForFxEvents();
        return question;
    }

    private static Map<String, String> changes(FxRobot robot) {
        return locksTable(robot).getItems().stream().collect(Collectors.toMap(LockRow::shownFile, LockRow::changes));
    }

    private static TableView<LockRow> locksTable(FxRobot robot) {
        return robot.lookup("#locks-table").queryTableView();
    }

    private static <T> T onFx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
    }
}
