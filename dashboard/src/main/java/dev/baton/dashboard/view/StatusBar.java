package dev.baton.dashboard.view;

import dev.baton.dashboard.connection.ConnectionState;
import dev.baton.dashboard.connection.ConnectionStatus;
import dev.baton.dashboard.viewmodel.DashboardModel;
import dev.baton.dashboard.viewmodel.TeamModel;
import javafx.beans.binding.Bindings;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.shape.Circle;

/**
 * The bottom bar: connected / reconnecting / offline with the reason, the team (only in one), and the last action's
 * outcome.
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
        Label state = new Label();
        state.setId("connection-state");
        state.getStyleClass().add("connection-state");
        Label detail = new Label();
        detail.setId("connection-detail");
        detail.getStyleClass().add("connection-detail");
        Label counts = new Label();
        counts.getStyleClass().add("connection-detail");
        counts.textProperty().bind(Bindings.createStringBinding(() -> model.loadedProperty().get()
                        ? model.sessions().size() + " sessions · " + model.locks().size() + " locks · event #" + model.seqProperty().get()
                        : "", model.loadedProperty(), model.seqProperty(), model.sessions(), model.locks()));
        Label team = team(model.team());
        outcome.setId("action-outcome");
        outcome.getStyleClass().add("action-outcome");
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        getChildren().addAll(dot, state, detail, spacer, outcome, team, counts);
        model.connectionProperty().addListener((obs, old, status) -> show(status, dot, state, detail));
        show(model.connectionProperty().get(), dot, state, detail);
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

    private void show(ConnectionStatus status, Circle dot, Label state, Label detail) {
        state.setText(status.state().shown());
        detail.setText(status.state() == ConnectionState.CONNECTED ? "" : status.detail());
        for (ConnectionState each : ConnectionState.values()) {
            PseudoClass pseudo = PseudoClass.getPseudoClass(each.name().toLowerCase(java.util.Locale.ROOT));
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
