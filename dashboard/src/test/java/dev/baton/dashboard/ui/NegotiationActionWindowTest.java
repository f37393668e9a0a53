package dev.baton.dashboard.ui;

import static dev.baton.dashboard.ui.LiveWindow.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.view.Page;
import dev.baton.dashboard.viewmodel.NegotiationRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import javafx.scene.control.Button;
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

/** The supervisor settles a request where it shows: the Negotiations page frees the file for its requester. */
@ExtendWith(ApplicationExtension.class)
class NegotiationActionWindowTest {

    @TempDir
    Path temp;

    private LiveWindow live;
    private Path file;
    private String holder;
    private String requester;

    @Start
    void start(Stage stage) throws Exception {
        Path repo = Files.createDirectories(temp.resolve("repo")).toRealPath();
        file = repo.resolve("src/Shared.java");
        live = LiveWindow.show(stage, temp, Clock.systemUTC(), true, Page.NEGOTIATIONS);
        holder = live.sidecar().register("aaaaaaaa-holder", "holder", repo);
        requester = live.sidecar().register("bbbbbbbb-asker", "asker", repo);
    }

    @BeforeEach
    void aRequestIsOpen() {
        live.awaitFirstSnapshot();
        live.sidecar().acquire(holder, file, 0);
        live.sidecar().negotiate(requester, file, "needs the new signature", "normal");
        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() -> live.window().model().negotiations().size() == 1));
    }

    @AfterEach
    void stop() throws Exception {
        if (live != null) {
            live.close();
        }
    }

    @Test
    void freeingTheFileForTheRequesterAsksFirstThenResolvesTheRequestAndLetsTheRequesterTakeIt(FxRobot robot)
            throws Exception {
        assertThat(onFx(() -> robot.lookup("#free-for-requester").queryAs(Button.class).isDisabled()))
                .as("nothing selected").isTrue();
        robot.interact(() -> table(robot).getSelectionModel().select(0));
        robot.clickOn("#free-for-requester");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(onFx(() -> robot.lookup("#confirmation-question").queryAs(Label.class).getText()))
                .contains("asker asked for " + file).contains("holder holds it").contains("force-releases it");
        assertThat(live.sidecar().locks().path("locks")).as("nothing is freed before the answer").hasSize(1);

        robot.clickOn("#confirm-action");

        await().atMost(Duration.ofSeconds(10)).until(() -> live.sidecar().locks().path("locks").isEmpty());
        await().atMost(Duration.ofSeconds(10)).until(() -> onFx(() -> table(robot).getItems().stream()
                .noneMatch(NegotiationRow::open)));
        assertThat(live.sidecar().acquire(requester, file, 0).path("all_acquired").asBoolean()).isTrue();
    }

    private static TableView<NegotiationRow> table(FxRobot robot) {
        return robot.lookup("#negotiations-table").queryTableView();
    }
}
