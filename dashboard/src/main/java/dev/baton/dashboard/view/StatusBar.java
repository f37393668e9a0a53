package dev.baton.dashboard.view;

import dev.baton.dashboard.connection.ConnectionState;
import dev.baton.dashboard.connection.ConnectionStatus;
import dev.baton.dashboard.viewmodel.DashboardModel;
import dev.baton.dashboard.viewmodel.TeamModel;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javafx.beans.binding.Bindings;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.shape.Circle;

/**
 * The bottom bar: connected / reconnecting / offline, since when and when it retries, with the reason; the team (only
 * in one), and the last action's outcome. The state and its times are never cut: the reason and the outcome give way.
 */
final class StatusBar extends HBox {

    private final Label outcome = new Label();

    StatusBar(DashboardModel model) {
        setId("status-bar");
        getStyleClass().add("status-bar");
        setAlignment(Pos.CENTER_LEFT);
        setSpacing(8);
        Circle dot = new Circle(5);
        dot.getStyleClass().add("connection-dot");
        Label state = whole(new Label());
        state.setId("connection-state");
        state.getStyleClass().add("connection-state");
        Label retry = whole(new Label());
        retry.setId("connection-retry");
        retry.getStyleClass().add("connection-retry");
        Label detail = new Label();
        detail.setId("connection-detail");
        detail.getStyleClass().add("connection-detail");
        detail.setMinWidth(0);
        Label counts = whole(new Label());
        counts.getStyleClass().add("connection-detail");
        counts.textProperty().bind(Bindings.createStringBinding(() -> model.loadedProperty().get()
                        ? model.sessions().size() + " sessions · " + model.locks().size() + " locks · event #" + model.seqProperty().get()
                        : "", model.loadedProperty(), model.seqProperty(), model.sessions(), model.locks()));
        Label team = team(model.team());
        outcome.setId("action-outcome");
        outcome.getStyleClass().add("action-outcome");
        outcome.setMinWidth(0);
        Region spacer = new Region();
        spacer.setMinWidth(0);
        HBox.setHgrow(spacer, Priority.ALWAYS);
        getChildren().addAll(dot, state, retry, detail, spacer, outcome, whole(team), counts);
        Runnable show = () -> show(model.connectionProperty().get(), model.sinceProperty().get(), dot, state, retry, detail);
        model.connectionProperty().addListener((obs, old, status) -> show.run());
        model.sinceProperty().addListener((obs, old, since) -> show.run());
        show.run();
    }

    /** A label the bar does not shrink: the others give way first. */
    private static Label whole(Label label) {
        label.setMinWidth(Region.USE_PREF_SIZE);
        return label;
    }

    /** "team m1 · 3 machines · 7 locks", or that the team's database does not answer; absent without a team. */
    private static Label team(TeamModel team) {
        Label label = new Label();
        label.setId("team-state");
        label.getStyleClass().add("team-state");
        label.visibleProperty().bind(team.enabledProperty());
        label.managedProperty().bind(label.visibleProperty());
        label.textProperty().bind(Bindings.createStringBinding(() -> team.connectedProperty().get()
                        ? "team " + team.machineProperty().get() + " · " + team.machines().size() + " machines · "
                        + team.locks().size() + " locks"
                        : "team database unreachable",
                team.connectedProperty(), team.machineProperty(), team.machines(), team.locks()));
        team.connectedProperty().addListener((obs, old, connected) -> label.pseudoClassStateChanged(Pseudo.UNREACHABLE, !connected));
        label.pseudoClassStateChanged(Pseudo.UNREACHABLE, !team.connectedProperty().get());
        return label;
    }

    /** "Offline" "since 14:02:11 — retrying in 4 s" "· the sidecar at … is not answering". */
    private void show(ConnectionStatus status, String since, Circle dot, Label state, Label retry, Label detail) {
        boolean connected = status.state() == ConnectionState.CONNECTED;
        state.setText(status.state().shown());
        String times = Stream.of(since, status.retrying()).filter(part -> !part.isEmpty()).collect(Collectors.joining(" — "));
        retry.setText(connected ? "" : times);
        retry.setVisible(!retry.getText().isEmpty());
        retry.setManaged(retry.isVisible());
        detail.setText(connected ? "" : (times.isEmpty() ? "" : "· ") + status.reason());
        // The reason gives way when the bar is short of room; its tooltip has it whole.
        detail.setTooltip(connected ? null : new Tooltip(status.detail()));
        for (ConnectionState each : ConnectionState.values()) {
            PseudoClass pseudo = PseudoClass.getPseudoClass(each.name().toLowerCase(Locale.ROOT));
            dot.pseudoClassStateChanged(pseudo, each == status.state());
            state.pseudoClassStateChanged(pseudo, each == status.state());
        }
    }

    void outcome(String message, boolean failed) {
        outcome.setText(message);
        outcome.pseudoClassStateChanged(PseudoClass.getPseudoClass("failed"), failed);
        outcome.pseudoClassStateChanged(PseudoClass.getPseudoClass("done"), !failed);
    }
}
