package dev.baton.dashboard.view;

import atlantafx.base.theme.Styles;
import dev.baton.dashboard.viewmodel.SupervisorActions;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
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
    private final Button confirm = new Button();
    private final Button cancel = new Button("Cancel");
    private Runnable onConfirm = () -> { };

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
        HBox buttons = new HBox(8, cancel, confirm);
        buttons.setAlignment(Pos.CENTER_RIGHT);
        VBox card = new VBox(14, title, question, buttons);
        card.getStyleClass().add("confirmation-card");
        card.setMaxSize(520, USE_PREF_SIZE);
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
        title.setText(confirmation.title());
        question.setText(confirmation.question());
        confirm.setText(confirmation.confirmLabel());
        onConfirm = action;
        setVisible(true);
        cancel.requestFocus();
    }

    void hide() {
        setVisible(false);
        onConfirm = () -> { };
    }
}
