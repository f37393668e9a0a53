package dev.baton.dashboard.view;

import dev.baton.dashboard.connection.ConnectionState;
import dev.baton.dashboard.connection.ConnectionStatus;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;

/**
 * What an empty table says: before the first snapshot, how the connection stands and how to fix it;
 * after, what would fill the table ("No agents yet — run `baton install` and start Claude Code").
 */
final class EmptyState {

    private final VBox box;

    EmptyState(String headline, String hint, ReadOnlyBooleanProperty loaded,
               ReadOnlyObjectProperty<ConnectionStatus> connection) {
        Label title = new Label();
        title.getStyleClass().addAll("title-4", "empty-title");
        Label detail = new Label();
        detail.getStyleClass().add("empty-hint");
        detail.setWrapText(true);
        detail.setMaxWidth(520);
        title.textProperty().bind(Bindings.createStringBinding(() -> loaded.get() ? headline
                : connection.get().state() == ConnectionState.OFFLINE ? "Not connected to a sidecar"
                : "Waiting for the sidecar…", loaded, connection));
        detail.textProperty().bind(Bindings.createStringBinding(() -> loaded.get() ? hint
                : connection.get().detail(), loaded, connection));
        box = new VBox(6, title, detail);
        box.setAlignment(Pos.CENTER);
        box.getStyleClass().add("empty-state");
    }

    Node node() {
        return box;
    }
}
