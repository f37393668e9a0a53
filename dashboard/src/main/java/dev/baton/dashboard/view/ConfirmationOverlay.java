package dev.baton.dashboard.view;

import atlantafx.base.theme.Styles;
import dev.baton.dashboard.viewmodel.SupervisorActions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javafx.application.Platform;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * An in-window confirmation over a dimmed page (no separate dialog window, no animation): it names what
 * will be freed; Cancel (or Escape) is the default, the destructive button has to be pressed on purpose.
 */
final class ConfirmationOverlay extends StackPane {

    private final Label title = new Label();
    private final Label question = new Label();
    /** What a reading shows (a diff, a history): monospace, selectable, scrolled within the card. */
    private final TextArea text = new TextArea();
    private final Button confirm = new Button();
    private final Button cancel = new Button("Cancel");
    private Runnable onConfirm = () -> { };
    private final VBox card;

    ConfirmationOverlay() {
        setId("confirmation");
        getStyleClass().add("confirmation-overlay");
        title.getStyleClass().add("title-3");
        title.setId("confirmation-title");
        question.setWrapText(true);
        question.setId("confirmation-question");
        confirm.setId("confirm-action");
        confirm.getStyleClass().add(Styles.DANGER);
        cancel.setId("cancel-action");
        cancel.setCancelButton(true);
        text.setId("reading-text");
        text.setEditable(false);
        text.setWrapText(false);
        text.getStyleClass().add("reading-text");
        text.setPrefRowCount(24);
        text.setManaged(false);
        text.setVisible(false);
        HBox buttons = new HBox(8, cancel, confirm);
        buttons.setAlignment(Pos.CENTER_RIGHT);
        VBox card = new VBox(14, title, question, text, buttons);
        card.getStyleClass().add("confirmation-card");
        card.setMaxSize(520, USE_PREF_SIZE);
        this.card = card;
        getChildren().add(card);
        setVisible(false);
        cancel.setOnAction(e -> hide());
        confirm.setOnAction(e -> {
            Runnable action = onConfirm;
            hide();
            action.run();
        });
        setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ESCAPE) {
                hide();
            }
        });
    }

    void show(SupervisorActions.Confirmation confirmation, Runnable action) {
        reading(false);
        title.setText(confirmation.title());
        question.setText(confirmation.question());
        confirm.setText(confirmation.confirmLabel());
        onConfirm = action;
        setVisible(true);
        cancel.requestFocus();
    }

    /**
     * Something to read, not to answer (a file's changes, its history): {@code text} once it has come, the line
     * {@code pending} until then. Close (or Escape) puts it away.
     */
    void read(String heading, String pending, CompletableFuture<String> body) {
        reading(true);
        title.setText(heading);
        question.setText(pending);
        text.setText("");
        onConfirm = () -> { };
        setVisible(true);
        cancel.requestFocus();
        body.whenComplete((shown, error) -> Platform.runLater(() -> {
            if (!isVisible() || !heading.equals(title.getText())) {
                return; // put away, or another reading came meanwhile
            }
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                question.setText("Could not read it: " + cause.getMessage());
            } else {
                question.setText(shown.isEmpty() ? "Nothing to show." : "");
                text.setText(shown);
            }
        }));
    }

    private void reading(boolean reading) {
        confirm.setVisible(!reading);
        confirm.setManaged(!reading);
        text.setVisible(reading);
        text.setManaged(reading);
        cancel.setText(reading ? "Close" : "Cancel");
        card.setMaxSize(reading ? 900 : 520, USE_PREF_SIZE);
    }

    void hide() {
        setVisible(false);
        onConfirm = () -> { };
    }
}
