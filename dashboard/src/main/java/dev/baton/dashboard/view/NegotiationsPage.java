package dev.baton.dashboard.view;

import atlantafx.base.theme.Styles;
import dev.baton.dashboard.viewmodel.Countdown;
import dev.baton.dashboard.viewmodel.DashboardModel;
import dev.baton.dashboard.viewmodel.NegotiationRow;
import dev.baton.dashboard.viewmodel.SupervisorActions;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.Button;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;

/**
 * The Negotiations page: who asks whom for which file, and how long until the requester may force-release; the
 * supervisor may free the file for the requester at any time, with a confirmation.
 */
final class NegotiationsPage {

    private NegotiationsPage() {
    }

    /** The page itself, with the supervisor's action on a request: free the file for its requester. */
    static TablePage<NegotiationRow> build(String id, DashboardModel model, SupervisorActions actions, ActionRunner runner) {
        TablePage<NegotiationRow> page = build(id, model, false);
        Button free = new Button("Free it for the requester…");
        free.setId("free-for-requester");
        free.getStyleClass().add(Styles.DANGER);
        free.disableProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(() -> {
            NegotiationRow row = page.table().getSelectionModel().getSelectedItem();
            return row == null || !row.open();
        }, page.table().getSelectionModel().selectedItemProperty(), model.negotiations()));
        free.setOnAction(e -> {
            NegotiationRow row = page.table().getSelectionModel().getSelectedItem();
            if (row != null && row.open()) {
                runner.confirmThenRun(actions.confirmFreeForRequester(row), () -> actions.freeForRequester(row));
            }
        });
        page.action(free);
        return page;
    }

    /** @param compact fewer columns, for the overview's side panel */
    static TablePage<NegotiationRow> build(String id, DashboardModel model, boolean compact) {
        EmptyState empty = new EmptyState("No negotiations",
                "An agent asks for a held file with `baton negotiate FILE --reason …`; the request and its timeout show here.",
                model.loadedProperty(), model.connectionProperty());
        TablePage<NegotiationRow> page = new TablePage<>(id, model.negotiations(),
                row -> String.join(" ", row.requester(), row.holder(), row.file(), row.urgency(), row.status(), row.reason()),
                empty, model.nowProperty());
        TableColumn<NegotiationRow, Countdown> left = new TableColumn<>("Time left");
        left.setPrefWidth(100);
        left.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(Countdown.of(cell.getValue(), model.nowProperty().get())));
        if (compact) {
            // Beside the graph there is room for three columns: who asks whom, and for which file, share one.
            page.columns(
                    left,
                    Columns.text("Urgency", 70, NegotiationRow::urgency),
                    Columns.wrapping(Columns.text("Request", 150,
                            row -> row.requester() + " → " + row.holder() + "\n" + row.shownFile())));
        } else {
            page.columns(
                    Columns.machine(model.team()),
                    Columns.text("Requester", 110, NegotiationRow::requester),
                    Columns.text("Holder", 110, NegotiationRow::holder),
                    Columns.textWithTip("File", 220, NegotiationRow::shownFile, NegotiationRow::file),
                    Columns.text("Urgency", 80, NegotiationRow::urgency),
                    Columns.ago("Age", 90, NegotiationRow::createdAt, model.nowProperty()),
                    Columns.text("Status", 110, NegotiationRow::status),
                    left,
                    Columns.wrapping(Columns.text("Reason", 220, NegotiationRow::reason)));
        }
        page.sortBy(left, TableColumn.SortType.ASCENDING);
        page.table().setRowFactory(table -> new TableRow<>() {
            @Override
            protected void updateItem(NegotiationRow item, boolean empty) {
                super.updateItem(item, empty);
                Countdown.Level level = empty || item == null ? null : Countdown.of(item, model.nowProperty().get()).level();
                pseudoClassStateChanged(Pseudo.NEAR, level == Countdown.Level.NEAR);
                pseudoClassStateChanged(Pseudo.ELIGIBLE, level == Countdown.Level.ELIGIBLE);
                pseudoClassStateChanged(Pseudo.SETTLED, level == Countdown.Level.SETTLED);
            }
        });
        return page;
    }
}
