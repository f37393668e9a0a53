package dev.baton.dashboard.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.dashboard.DashboardWindow;
import dev.baton.dashboard.connection.SidecarLocator;
import dev.baton.dashboard.view.Page;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;
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
 * The real window, headless, on the scene of the README's screenshot (four agents, a negotiation, a deadlock,
 * messages, a plan) from a real sidecar: at 1280×800 and every larger common size, every table on every page shows
 * every column and every cell whole, with no ellipsis and no sideways scrolling.
 */
@ExtendWith(ApplicationExtension.class)
class TableFitTest {

    private static final int[][] SIZES = {{1280, 800}, {1440, 900}, {1920, 1080}};

    @TempDir
    Path temp;

    private LiveSidecar sidecar;
    private DashboardWindow window;
    private Stage stage;
    private Path repo;
    private final List<CompletableFuture<JsonNode>> waits = new ArrayList<>();
    private final List<String> sessions = new ArrayList<>();

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        repo = Files.createDirectories(temp.resolve("shop")).toRealPath();
        sidecar = new LiveSidecar(temp.resolve("home")).start();
        window = new DashboardWindow(SidecarLocator.home(sidecar.home()), Clock.systemUTC(), true);
        window.show(stage, SIZES[0][0], SIZES[0][1], Page.OVERVIEW);
    }

    @AfterEach
    void stop() throws Exception {
        for (String session : sessions) {
            sidecar.endSession(session);
        }
        for (CompletableFuture<JsonNode> wait : waits) {
            wait.handle((reply, error) -> reply).get(60, TimeUnit.SECONDS);
        }
        WaitForAsyncUtils.asyncFx(window::close).get(10, TimeUnit.SECONDS);
        sidecar.close();
    }

    @Test
    void everyTableShowsEveryColumnAndCellWholeFrom1280x800Up(FxRobot robot) throws Exception {
        buildTheReadmeScene();
        await().atMost(Duration.ofSeconds(20)).until(() -> onFx(() -> window.model().sessions().size() == 4
                && window.model().locks().size() == 5 && window.model().negotiations().size() == 1
                && !window.model().board().deadlocks().isEmpty() && window.model().messages().size() == 5
                && window.model().messages().stream().noneMatch(row -> "…".equals(row.text()))));

        List<String> problems = new ArrayList<>();
        for (int[] size : SIZES) {
            robot.interact(() -> {
                stage.setWidth(size[0]);
                stage.setHeight(size[1]);
            });
            for (Page page : Page.values()) {
                robot.interact(() -> window.view().open(page));
                WaitForAsyncUtils.waitForFxEvents();
                problems.addAll(onFx(() -> cutOff(robot, size[0] + "x" + size[1] + " " + page)));
            }
        }

        assertThat(problems).as("what the tables do not show whole").isEmpty();
    }

    /** Sessions, locks, waits that form a deadlock, a negotiation, a plan and messages, as agents make them. */
    private void buildTheReadmeScene() {
        String auth = session("3f2a91c4-auth", "claude-code", "auth-refactor");
        String billing = session("9c1d77e0-billing", "copilot-cli", "billing-fix");
        String docs = session("51be0a3d-docs", "claude-code", "docs");
        String tests = session("a7e4c2f9-tests", "codex", "test-suite");
        sidecar.acquire(auth, repo.resolve("src/auth/Login.java"), 0);
        sidecar.acquire(auth, repo.resolve("src/auth/Session.java"), 0);
        sidecar.acquire(billing, repo.resolve("src/billing/Invoice.java"), 0);
        sidecar.acquire(docs, repo.resolve("docs/architecture.md"), 0);
        sidecar.acquire(tests, repo.resolve("src/billing/InvoiceTest.java"), 0);
        sidecar.plan(auth, "move the login audit onto the new invoice rounding", "split the session filter in two");
        sidecar.negotiate(tests, repo.resolve("src/billing/Invoice.java"), "the test needs the new rounding", "urgent");
        sidecar.sendMessage(auth, billing, "I need src/billing/Invoice.java for the login audit; tell me when you are done");
        sidecar.sendMessage(billing, auth, "done in ~10 min, rounding fix first");
        sidecar.sendMessage(tests, "*", "the test suite is red on main; please do not merge until InvoiceTest passes");
        sidecar.sendMessage(docs, tests, "which tests cover the new rounding? I am documenting it");
        sidecar.sendMessage(billing, docs, "the rounding rules are in src/billing/Rounding.java, see its comment");
        waits.add(CompletableFuture.supplyAsync(() -> sidecar.acquire(auth, repo.resolve("src/billing/Invoice.java"), 600)));
        waits.add(CompletableFuture.supplyAsync(() -> sidecar.acquire(billing, repo.resolve("src/auth/Session.java"), 600)));
        waits.add(CompletableFuture.supplyAsync(() -> sidecar.acquire(docs, repo.resolve("src/auth/Login.java"), 600)));
    }

    private String session(String id, String agent, String name) {
        sessions.add(0, sidecar.register(id, agent, name, repo));
        return id;
    }

    /** Every column header, column and cell of the page's tables that is cut, hidden or scrolled out of sight. */
    private static List<String> cutOff(FxRobot robot, String where) {
        List<String> problems = new ArrayList<>();
        for (Node node : robot.lookup(".table-view").queryAll()) {
            if (!isShown(node)) {
                continue;
            }
            TableView<?> table = (TableView<?>) node;
            String name = where + " " + table.getId();
            double columns = table.getVisibleLeafColumns().stream().mapToDouble(TableColumn::getWidth).sum();
            double room = table.getWidth() - table.snappedLeftInset() - table.snappedRightInset();
            if (columns > room + 1) {
                problems.add(name + ": columns need " + Math.round(columns) + " px, the table has " + Math.round(room));
            }
            for (Node bar : table.lookupAll(".scroll-bar")) {
                if (bar instanceof ScrollBar scroll && scroll.getOrientation() == Orientation.HORIZONTAL && scroll.isVisible()) {
                    problems.add(name + ": scrolls sideways");
                }
            }
            for (Node header : table.lookupAll(".column-header .label")) {
                cut((Labeled) header).ifPresent(shown -> problems.add(name + ": header " + shown));
            }
            for (Node cell : table.lookupAll(".table-cell")) {
                TableCell<?, ?> tableCell = (TableCell<?, ?>) cell;
                if (tableCell.isVisible() && tableCell.getTableRow() != null && tableCell.getTableRow().getItem() != null) {
                    cut(tableCell).ifPresent(shown -> problems.add(name + ": column "
                            + tableCell.getTableColumn().getText() + " " + shown));
                }
            }
        }
        return problems;
    }

    private static boolean isShown(Node node) {
        for (Node at = node; at != null; at = at.getParent()) {
            if (!at.isVisible()) {
                return false;
            }
        }
        return node.getScene() != null;
    }

    /** The labeled's text as shown, when it is not the whole of it (an ellipsis, or lines that do not fit). */
    private static java.util.Optional<String> cut(Labeled labeled) {
        String text = labeled.getText();
        if (text == null || text.isEmpty() || !(labeled.lookup(".text") instanceof Text shown)) {
            return java.util.Optional.empty();
        }
        boolean whole = shown.getText().equals(text)
                && shown.getLayoutBounds().getHeight() <= labeled.getHeight() - labeled.snappedTopInset()
                        - labeled.snappedBottomInset() + 1;
        return whole ? java.util.Optional.empty() : java.util.Optional.of("'" + text + "' shown as '" + shown.getText() + "'");
    }

    private static <T> T onFx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(10, TimeUnit.SECONDS);
    }
}
