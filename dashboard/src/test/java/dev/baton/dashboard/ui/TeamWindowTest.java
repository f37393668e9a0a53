package dev.baton.dashboard.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.DashboardWindow;
import dev.baton.dashboard.connection.SidecarLocator;
import dev.baton.dashboard.view.Page;
import dev.baton.dashboard.viewmodel.TeamLockRow;
import dev.baton.dashboard.viewmodel.TeamMachineRow;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
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
 * The real window, headless, on a sidecar in a team: two real sidecars (machines m1 and m2) share one real PostgreSQL,
 * and the dashboard, on m1's sidecar, shows what both hold.
 */
@ExtendWith(ApplicationExtension.class)
class TeamWindowTest {

    private static final String ORIGIN = "https://github.com/acme/shop.git";

    @TempDir
    Path temp;

    private final List<LiveSidecar> sidecars = new ArrayList<>();
    private Stage stage;
    private DashboardWindow window;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void stop() throws Exception {
        if (window != null) {
            WaitForAsyncUtils.asyncFx(window::close).get(10, TimeUnit.SECONDS);
        }
        sidecars.forEach(LiveSidecar::close);
    }

    @Test
    void everyMachineAndEveryFileHeldInTheTeamShowsWithItsMachineAndThisMachinesRowsMarked(FxRobot robot) throws Exception {
        Path repo = repository();
        String url = TeamDatabase.newDatabase();
        LiveSidecar m1 = sidecar(LiveSidecar.inTeam(temp.resolve("m1-home"), url, "m1"));
        LiveSidecar m2 = sidecar(LiveSidecar.inTeam(temp.resolve("m2-home"), url, "m2"));
        String auth = m1.register("aaaaaaaa-on-m1", "auth", repo);
        String billing = m2.register("bbbbbbbb-on-m2", "billing", repo);
        m1.acquire(auth, repo.resolve("src/App.java"), 0);
        m2.acquire(billing, repo.resolve("src/Billing.java"), 0);
        open(robot, m1, Page.TEAM);

        await().atMost(Duration.ofSeconds(15)).until(() -> onFx(() -> teamLocks(robot).getItems().size() == 2
                && machines(robot).getItems().size() == 2));

        assertThat(onFx(() -> List.copyOf(teamLocks(robot).getItems()))).extracting(TeamLockRow::machine, TeamLockRow::local,
                        TeamLockRow::repository, TeamLockRow::path, TeamLockRow::holder, TeamLockRow::lease)
                .containsExactly(tuple("m1", true, "github.com/acme/shop", "src/App.java", "auth", "valid"),
                        tuple("m2", false, "github.com/acme/shop", "src/Billing.java", "billing", "valid"));
        assertThat(onFx(() -> columnTitles(teamLocks(robot)))).startsWith("Machine", "Repository", "Path", "Holder");
        assertThat(onFx(() -> List.copyOf(machines(robot).getItems()))).extracting(TeamMachineRow::shownMachine,
                        TeamMachineRow::lease, TeamMachineRow::locks)
                .containsExactly(tuple("m1 (this machine)", "valid", 1), tuple("m2", "valid", 1));
        await().atMost(Duration.ofSeconds(2)).until(() -> onFx(() -> renderedRows(robot, "#team-locks-table")).equals(
                List.of("m1 local", "m2")));
        assertThat(onFx(() -> robot.lookup("#team-status").queryAs(Label.class).getText()))
                .startsWith("Connected to the team as m1");
        assertThat(onFx(() -> robot.lookup("#team-state").queryAs(Label.class)))
                .satisfies(label -> assertThat(label.isVisible()).isTrue())
                .extracting(Label::getText).isEqualTo("team m1 · 2 machines · 2 locks");
        assertThat(onFx(() -> navPages(robot))).contains(Page.TEAM);

        // This sidecar's own tables name their machine too, so they read like the team's.
        robot.interact(() -> window.view().open(Page.LOCKS));
        await().atMost(Duration.ofSeconds(2)).until(() -> onFx(() -> robot.lookup(".table-cell").queryAll().stream()
                .anyMatch(cell -> cell.isVisible() && "m1".equals(((Labeled) cell).getText()))));
        assertThat(onFx(() -> columnTitles(robot.lookup("#locks-table").queryTableView()))).first().isEqualTo("Machine");

        // A file released on the other machine leaves the team's table at a later poll: no event tells this sidecar.
        m2.release(billing, repo.resolve("src/Billing.java"));
        await().atMost(Duration.ofSeconds(15)).until(() -> onFx(() -> window.model().team().locks().stream()
                .map(TeamLockRow::path).toList()).equals(List.of("src/App.java")));
    }

    @Test
    void aTeamWhoseDatabaseDoesNotAnswerShowsUnreachableSinceWithTheError(FxRobot robot) throws Exception {
        LiveSidecar m1 = sidecar(LiveSidecar.inTeam(temp.resolve("m1-home"),
                "postgresql://postgres@127.0.0.1:" + closedPort() + "/gone", "m1"));
        open(robot, m1, Page.TEAM);

        await().atMost(Duration.ofSeconds(15)).until(() -> onFx(() -> robot.lookup("#team-status").queryAs(Label.class)
                .getText()).startsWith("Team database unreachable"));

        assertThat(onFx(() -> robot.lookup("#team-detail").queryAs(Label.class).getText())).isNotBlank()
                .contains("postgresql://");
        assertThat(onFx(() -> robot.lookup("#team-status").queryAs(Label.class).getPseudoClassStates()))
                .contains(PseudoClass.getPseudoClass("unreachable"));
        assertThat(onFx(() -> robot.lookup("#team-state").queryAs(Label.class).getText())).isEqualTo("team database unreachable");
    }

    @Test
    void withoutATeamNeitherTheTeamPageNorAMachineColumnNorTheTeamStatusShows(FxRobot robot) throws Exception {
        Path repo = repository();
        LiveSidecar alone = sidecar(new LiveSidecar(temp.resolve("home")));
        alone.acquire(alone.register("cccccccc-alone", "solo", repo), repo.resolve("src/App.java"), 0);
        open(robot, alone, Page.LOCKS);

        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() -> window.model().team().knownProperty().get()
                && window.model().locks().size() == 1));
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(onFx(() -> navPages(robot))).doesNotContain(Page.TEAM).contains(Page.LOCKS);
        assertThat(onFx(() -> robot.lookup("#locks-table").queryTableView().getVisibleLeafColumns().stream()
                .map(TableColumn::getText).toList())).doesNotContain("Machine").first().isEqualTo("File");
        assertThat(onFx(() -> robot.lookup("#team-state").query().isVisible())).isFalse();
    }

    private LiveSidecar sidecar(LiveSidecar sidecar) throws IOException {
        sidecars.add(sidecar);
        return sidecar.start();
    }

    private void open(FxRobot robot, LiveSidecar sidecar, Page page) throws Exception {
        robot.interact(() -> {
            window = new DashboardWindow(SidecarLocator.home(sidecar.home()), Clock.systemUTC(), true);
            window.show(stage, 1280, 800, Page.OVERVIEW);
            window.view().open(page);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() -> window.model().loadedProperty().get()));
    }

    /** A clone whose origin names the team's repository, with one commit, as every machine's would be. */
    private Path repository() throws IOException, InterruptedException {
        Path repo = Files.createDirectories(temp.resolve("shop")).toRealPath();
        git(repo, "init", "-q", "-b", "main");
        git(repo, "remote", "add", "origin", ORIGIN);
        git(repo, "-c", "user.email=test@example.com", "-c", "user.name=Test", "-c", "commit.gpgsign=false",
                "commit", "-q", "--allow-empty", "-m", "initial");
        return repo;
    }

    private static void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("git " + String.join(" ", args) + " failed: " + output);
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static TableView<TeamLockRow> teamLocks(FxRobot robot) {
        return robot.lookup("#team-locks-table").queryTableView();
    }

    private static TableView<TeamMachineRow> machines(FxRobot robot) {
        return robot.lookup("#team-machines-table").queryTableView();
    }

    private static List<String> columnTitles(TableView<?> table) {
        return table.getVisibleLeafColumns().stream().map(TableColumn::getText).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Page> navPages(FxRobot robot) {
        return List.copyOf(((ListView<Page>) robot.lookup("#nav").query()).getItems());
    }

    /** The rendered rows of a team table: each row's machine, and "local" when it is marked as this machine's. */
    private static List<String> renderedRows(FxRobot robot, String table) {
        return robot.from((Node) robot.lookup(table).query()).lookup(".table-row-cell").queryAll().stream()
                .map(node -> (TableRow<?>) node)
                .filter(row -> row.getItem() instanceof TeamLockRow)
                .map(row -> ((TeamLockRow) row.getItem()).machine()
                        + (row.getPseudoClassStates().contains(PseudoClass.getPseudoClass("local")) ? " local" : ""))
                .sorted()
                .toList();
    }

    private static <T> T onFx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
    }
}
