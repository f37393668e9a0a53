package dev.baton.dashboard;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import dev.baton.dashboard.connection.Backoff;
import dev.baton.dashboard.connection.EventStream;
import dev.baton.dashboard.connection.Poller;
import dev.baton.dashboard.connection.SidecarApi;
import dev.baton.dashboard.connection.SidecarLocator;
import dev.baton.dashboard.protocol.Frame;
import dev.baton.dashboard.protocol.TeamReply;
import dev.baton.dashboard.view.MainView;
import dev.baton.dashboard.view.Page;
import dev.baton.dashboard.viewmodel.DashboardModel;
import dev.baton.dashboard.viewmodel.SupervisorActions;
import dev.baton.dashboard.viewmodel.UpdateBatcher;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.util.Duration;

/**
 * Wires one dashboard window: the event stream feeds frames through the batcher into the model on the
 * FX thread; the team is polled every few seconds; a one-second tick moves relative times; supervisor
 * actions go through the REST API.
 */
public final class DashboardWindow implements AutoCloseable {

    private static final java.time.Duration TEAM_EVERY = java.time.Duration.ofSeconds(3);
    /** A held file changes without an event (its holder writes it): git is asked again this often. */
    private static final java.time.Duration CHANGES_EVERY = java.time.Duration.ofSeconds(5);

    private final DashboardModel model;
    private final SidecarApi api;
    private final UpdateBatcher<Frame> batcher;
    private final EventStream stream;
    private final Poller<TeamReply> team;
    private final Poller<Map<String, Boolean>> changes;
    private final MainView view;
    private final Timeline ticker;
    private final AtomicBoolean inboxFetching = new AtomicBoolean();
    private final AtomicBoolean inboxStale = new AtomicBoolean();
    private Scene scene;

    public DashboardWindow(SidecarLocator locator, Clock clock, boolean dark) {
        applyTheme(dark);
        model = new DashboardModel(clock);
        api = new SidecarApi(locator);
        batcher = new UpdateBatcher<>(UpdateBatcher.DEFAULT_INTERVAL, Platform::runLater, model::apply);
        stream = new EventStream(locator, Backoff.standard(), batcher::offer,
                status -> Platform.runLater(() -> model.connectionChanged(status)));
        view = new MainView(model, new SupervisorActions(api, model.board()), DashboardWindow::applyTheme, dark);
        model.onMessagesChanged(this::fetchInbox);
        team = new Poller<>(api::team, TEAM_EVERY,
                reply -> Platform.runLater(() -> model.teamFetched(reply)),
                error -> Platform.runLater(() -> model.teamPollFailed(error)));
        // A poll that fails leaves the last answer: the connection's own state says the sidecar is away.
        changes = new Poller<>(api::uncommitted, CHANGES_EVERY,
                uncommitted -> Platform.runLater(() -> model.uncommittedFetched(uncommitted)), error -> { });
        // This machine's locks changed (taken, edited, freed): the team's list and the Changes column show it at
        // the next reply rather than an interval later. An answer that changes nothing changes no row.
        model.locks().addListener((javafx.collections.ListChangeListener<Object>) change -> {
            if (model.team().enabledProperty().get()) {
                team.pollSoon();
            }
            changes.pollSoon();
        });
        ticker = new Timeline(new KeyFrame(Duration.seconds(1), e -> model.tick()));
        ticker.setCycleCount(Animation.INDEFINITE);
    }

    public void show(Stage stage, double width, double height, Page page) {
        scene = new Scene(view.root(), width, height);
        scene.getStylesheets().add(DashboardWindow.class.getResource("dashboard.css").toExternalForm());
        view.open(page);
        stage.setTitle("Baton");
        stage.setScene(scene);
        stage.show();
        // Focus the page list, not the first filter box, so the window opens without a blinking caret.
        view.focusNavigation();
        ticker.play();
        stream.start();
        team.start();
        changes.start();
    }

    /** Fetches the supervisor inbox off the FX thread; a burst of message events costs one or two fetches. */
    private void fetchInbox() {
        inboxStale.set(true);
        if (!inboxFetching.compareAndSet(false, true)) {
            return;
        }
        inboxStale.set(false);
        api.messages().whenComplete((messages, error) -> Platform.runLater(() -> {
            // A sidecar without the messages route (404) keeps the rows the events announced.
            if (messages != null) {
                model.messagesFetched(messages);
            }
            inboxFetching.set(false);
            if (inboxStale.get() && error == null) {
                fetchInbox();
            }
        }));
    }

    private static void applyTheme(boolean dark) {
        Application.setUserAgentStylesheet(dark ? new PrimerDark().getUserAgentStylesheet()
                : new PrimerLight().getUserAgentStylesheet());
    }

    public DashboardModel model() {
        return model;
    }

    public MainView view() {
        return view;
    }

    public Scene scene() {
        return scene;
    }

    @Override
    public void close() {
        ticker.stop();
        stream.close();
        team.close();
        changes.close();
        batcher.close();
    }
}
