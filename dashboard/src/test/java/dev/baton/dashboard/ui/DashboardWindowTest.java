package dev.baton.dashboard.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.dashboard.DashboardWindow;
import dev.baton.dashboard.connection.ConnectionState;
import dev.baton.dashboard.view.Page;
import dev.baton.dashboard.viewmodel.LockRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.paint.Color;
import javafx.scene.shape.Shape;
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

/** The real window, headless, against a real sidecar on port 0 fed through its real HTTP API. */
@ExtendWith(ApplicationExtension.class)
class DashboardWindowTest {

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
    void aLockAppearsInTheLocksTableWithinASecondOfBeingAcquired(FxRobot robot) throws Exception {
        robot.interact(() -> window.view().open(Page.LOCKS));
        String session = sidecar.register("aaaaaaaa-lock-test", "auth", repo);

        sidecar.acquire(session, repo.resolve("src/App.java"), 0);

        await().atMost(Duration.ofSeconds(1)).until(() -> onFx(() -> lockFiles(robot)).contains("src/App.java"));
        // The row is in the model; the cell shows it at the next pulse.
        await().atMost(Duration.ofSeconds(1)).until(() -> onFx(() -> robot.lookup(".table-cell").queryAll().stream()
                .anyMatch(cell -> "src/App.java".equals(((javafx.scene.control.Labeled) cell).getText()))));
        LockRow row = onFx(() -> locksTable(robot).getItems().get(0));
        assertThat(row.file()).isEqualTo(repo.resolve("src/App.java").toString());
        assertThat(row.holder()).isEqualTo("auth");
    }

    @Test
    void theOverviewShowsARedCycleWithItsVictimAfterTwoSessionsWaitForEachOther(FxRobot robot) throws Exception {
        String a = sidecar.register("aaaaaaaa-deadlock", "older", repo);
        String b = sidecar.register("bbbbbbbb-deadlock", "younger", repo);
        sidecar.acquire(a, repo.resolve("a.txt"), 0);
        sidecar.acquire(b, repo.resolve("b.txt"), 0);

        CompletableFuture<JsonNode> aWaits = CompletableFuture.supplyAsync(() -> sidecar.acquire(a, repo.resolve("b.txt"), 30));
        CompletableFuture<JsonNode> bWaits = CompletableFuture.supplyAsync(() -> sidecar.acquire(b, repo.resolve("a.txt"), 30));
        try {
            // The edges exist once the model has the cycle; their colour comes with the next pulse's styling.
            await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() -> robot.lookup(".graph-edge.deadlock").queryAll().size() == 2
                    && robot.lookup(".graph-edge.deadlock").queryAll().stream().allMatch(edge -> ((Shape) edge).getStroke() != null)));

            for (Node edge : robot.lookup(".graph-edge.deadlock").queryAll()) {
                Color stroke = (Color) ((Shape) edge).getStroke();
                assertThat(stroke.getRed()).isGreaterThan(0.7);
                assertThat(stroke.getGreen()).isLessThan(0.5);
            }
            List<Node> victims = List.copyOf(robot.lookup(".graph-node.victim").queryAll());
            assertThat(victims).hasSize(1);
            assertThat(robot.from(victims.get(0)).lookup(".graph-node-name").queryAs(Label.class).getText())
                    .isEqualTo("younger");
            assertThat(robot.lookup(".graph-edge-label.deadlock").queryAll()).extracting(n -> ((Label) n).getText())
                    .containsExactlyInAnyOrder("a.txt", "b.txt");
        } finally {
            sidecar.endSession(b);
            sidecar.endSession(a);
            aWaits.handle((r, e) -> r).get(40, TimeUnit.SECONDS);
            bWaits.handle((r, e) -> r).get(40, TimeUnit.SECONDS);
        }
    }

    @Test
    void forceReleaseAsksForConfirmationNamingTheFileAndHolderThenFreesTheLockAsTheDashboard(FxRobot robot) {
        String session = sidecar.register("cccccccc-force", "crashed-agent", repo);
        Path file = repo.resolve("src/Router.java");
        sidecar.acquire(session, file, 0);
        robot.interact(() -> window.view().open(Page.LOCKS));
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> lockFiles(robot)).contains("src/Router.java"));

        robot.interact(() -> locksTable(robot).getSelectionModel().select(0));
        robot.clickOn("#force-release");

        assertThat(robot.lookup("#confirmation").query().isVisible()).isTrue();
        String question = robot.lookup("#confirmation-question").queryAs(Label.class).getText();
        assertThat(question).contains(file.toString()).contains("crashed-agent").contains("pid " + sidecar.pidOf(session));
        assertThat(sidecar.locks().path("locks")).hasSize(1);

        robot.clickOn("#confirm-action");

        await().atMost(Duration.ofSeconds(5)).until(() -> sidecar.locks().path("locks").isEmpty());
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> lockFiles(robot)).isEmpty());
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() ->
                robot.lookup("#action-outcome").queryAs(Label.class).getText()).startsWith("Freed src/Router.java"));
        assertThat(robot.lookup("#confirmation").query().isVisible()).isFalse();
        assertThat(StreamSupport.stream(sidecar.history(file).path("entries").spliterator(), false)
                .map(entry -> entry.path("actor").asText("")))
                .as("the audit names the supervisor, the dashboard, and the process the kernel saw")
                .anyMatch(actor -> actor.startsWith("supervisor (pid "));
    }

    @Test
    void endingASessionNamesEveryLockItFreesThenEndsIt(FxRobot robot) {
        String session = sidecar.register("ffffffff-end", "stuck-agent", repo);
        sidecar.acquire(session, repo.resolve("one.txt"), 0);
        sidecar.acquire(session, repo.resolve("two.txt"), 0);
        robot.interact(() -> window.view().open(Page.SESSIONS));
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> robot.lookup("#sessions-table")
                .queryTableView().getItems().size() == 1 && window.model().locks().size() == 2));

        robot.interact(() -> robot.lookup("#sessions-table").queryTableView().getSelectionModel().select(0));
        robot.clickOn("#end-session");

        assertThat(robot.lookup("#confirmation-question").queryAs(Label.class).getText())
                .contains(session).contains(repo.resolve("one.txt").toString()).contains(repo.resolve("two.txt").toString());
        robot.clickOn("#confirm-action");

        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> robot.lookup("#sessions-table").queryTableView().getItems().isEmpty()));
        assertThat(sidecar.locks().path("locks")).isEmpty();
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() ->
                robot.lookup("#action-outcome").queryAs(Label.class).getText()).startsWith("Ended session ffffffff; freed 2 lock(s)"));
    }

    @Test
    void theMessagesPageListsEveryMessageBetweenTheSessions(FxRobot robot) throws Exception {
        String a = sidecar.register("aaaaaaaa-messages", "auth", repo);
        String b = sidecar.register("bbbbbbbb-messages", "billing", repo);
        sidecar.sendMessage(a, b, "src/App.java is yours after this commit");
        sidecar.sendMessage(b, "*", "rebasing main in five minutes");

        robot.interact(() -> window.view().open(Page.MESSAGES));

        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> window.model().messages().size() == 2
                && window.model().messages().stream().allMatch(row -> !"…".equals(row.text()))));
        TableView<?> table = robot.lookup("#messages-table").queryTableView();
        assertThat(onFx(() -> table.getItems().size())).isEqualTo(2);
        assertThat(onFx(() -> window.model().messages().stream().map(row -> row.from() + ">" + row.to() + ":" + row.text()).toList()))
                .containsExactlyInAnyOrder("auth>billing:src/App.java is yours after this commit",
                        "billing>everyone:rebasing main in five minutes");
    }

    @Test
    void everyColumnHeaderOnEveryPageIsShownWhole(FxRobot robot) throws Exception {
        for (Page page : Page.values()) {
            robot.interact(() -> window.view().open(page));
            WaitForAsyncUtils.waitForFxEvents();

            List<String> cut = onFx(() -> robot.lookup(".column-header .label").queryAll().stream()
                    .filter(Node::isVisible)
                    .map(node -> (Label) node)
                    .filter(label -> label.lookup(".text") instanceof javafx.scene.text.Text shown
                            && !shown.getText().equals(label.getText()))
                    .map(label -> label.getText() + " shown as " + ((javafx.scene.text.Text) label.lookup(".text")).getText())
                    .toList());
            assertThat(cut).as("headers cut on %s", page).isEmpty();
        }
    }

    @Test
    void cancellingTheConfirmationLeavesTheLockHeld(FxRobot robot) {
        String session = sidecar.register("dddddddd-cancel", null, repo);
        sidecar.acquire(session, repo.resolve("keep.txt"), 0);
        robot.interact(() -> window.view().open(Page.LOCKS));
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> lockFiles(robot)).contains("keep.txt"));

        robot.interact(() -> locksTable(robot).getSelectionModel().select(0));
        robot.clickOn("#force-release");
        robot.clickOn("#cancel-action");

        assertThat(robot.lookup("#confirmation").query().isVisible()).isFalse();
        assertThat(sidecar.locks().path("locks")).hasSize(1);
    }

    @Test
    void aSidecarRestartShowsReconnectingThenTheStateAfterTheRestart(FxRobot robot) throws Exception {
        robot.interact(() -> window.view().open(Page.LOCKS));
        String session = sidecar.register("eeeeeeee-restart", null, repo);
        sidecar.acquire(session, repo.resolve("before.txt"), 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> lockFiles(robot)).contains("before.txt"));

        sidecar.stop();

        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() -> robot.lookup("#connection-state").queryAs(Label.class).getText())
                .equals(ConnectionState.RECONNECTING.shown()));

        sidecar.start();
        sidecar.release(session, repo.resolve("before.txt"));
        sidecar.acquire(session, repo.resolve("after.txt"), 0);

        await().atMost(Duration.ofSeconds(15)).until(() -> onFx(() -> lockFiles(robot)).equals(List.of("after.txt")));
        assertThat(onFx(() -> robot.lookup("#connection-state").queryAs(Label.class).getText()))
                .isEqualTo(ConnectionState.CONNECTED.shown());
    }

    @Test
    void aFileTakenInTwoWorktreesOnTwoBranchesIsNamedUnderAlsoChangedInAndJoinsItsSessionsOnTheGraph(FxRobot robot)
            throws Exception {
        GitCopies git = GitCopies.create(temp.resolve("shop"), "src/App.java");
        Path feature = git.addWorktree(temp.resolve("shop-feature"), "feature-b");
        String a = sidecar.register("aaaaaaaa-copies", "on-main", git.main());
        String b = sidecar.register("bbbbbbbb-copies", "on-feature", feature);

        sidecar.acquire(a, git.main().resolve("src/App.java"), 0);
        sidecar.acquire(b, feature.resolve("src/App.java"), 0);

        assertThat(StreamSupport.stream(sidecar.locks().path("locks").spliterator(), false)
                .map(lock -> lock.path("copy").path("worktree").asText() + " " + lock.path("copy").path("branch").asText()
                        + " " + lock.path("copy").path("path").asText()))
                .as("both copies are held, each with its worktree and branch")
                .containsExactlyInAnyOrder(git.main() + " main src/App.java", feature + " feature-b src/App.java");
        robot.interact(() -> window.view().open(Page.LOCKS));
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> locksTable(robot).getItems().stream()
                .map(LockRow::alsoChangedIn).sorted().toList()).equals(List.of(
                        "shop (branch main) by claude-code aaaaaaaa", "shop-feature (branch feature-b) by claude-code bbbbbbbb")));
        await().atMost(Duration.ofSeconds(1)).until(() -> onFx(() -> robot.lookup("#locks-table .table-cell").queryAll()
                .stream().map(cell -> ((javafx.scene.control.Labeled) cell).getText()).toList())
                .contains("shop-feature (branch feature-b) by claude-code bbbbbbbb"));

        robot.interact(() -> window.view().open(Page.OVERVIEW));
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> robot.lookup(".graph-overlap-label").queryAll().stream()
                .map(label -> ((Label) label).getText()).toList()).equals(List.of("src/App.java")));
        assertThat(robot.lookup(".graph-edge").queryAll()).as("nobody waits").isEmpty();

        sidecar.release(b, feature.resolve("src/App.java"));
        await().atMost(Duration.ofSeconds(5)).until(() -> onFx(() -> robot.lookup(".graph-overlap").queryAll().isEmpty()
                && window.model().locks().stream().allMatch(row -> row.alsoChangedIn().isEmpty())));
    }

    private static TableView<LockRow> locksTable(FxRobot robot) {
        return robot.lookup("#locks-table").queryTableView();
    }

    private static List<String> lockFiles(FxRobot robot) {
        return locksTable(robot).getItems().stream().map(LockRow::shownFile).toList();
    }

    private static <T> T onFx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
    }
}
