package dev.baton.dashboard.view;

import dev.baton.dashboard.connection.ConnectionState;
import dev.baton.dashboard.connection.ConnectionStatus;
import dev.baton.dashboard.viewmodel.DashboardModel;
import javafx.beans.binding.Bindings;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.shape.Circle;

/** The bottom bar: connected / reconnecting / offline with the reason, and the last action's outcome. */
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
        outcome.setId("action-outcome");
        outcome.getStyleClass().add("action-outcome");
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        getChildren().addAll(dot, state, detail, spacer, outcome, counts);
        model.connectionProperty().addListener((obs, old, status) -> show(status, dot, state, detail));
        show(model.connectionProperty().get(), dot, state, detail);
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
