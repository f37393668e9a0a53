package dev.baton.dashboard.view;

import atlantafx.base.theme.Styles;
import dev.baton.dashboard.viewmodel.DashboardModel;
import dev.baton.dashboard.viewmodel.LockRow;
import dev.baton.dashboard.viewmodel.SupervisorActions;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;

/**
 * The Locks page: every held file, its holder, its state, how many wait for it, and the other copies of its repository
 * where it is being changed too; force-release from here (the button, the row's context menu or Delete).
 */
final class LocksPage {

    private LocksPage() {
    }

    static TablePage<LockRow> build(DashboardModel model, SupervisorActions actions, ActionRunner runner) {
        EmptyState empty = new EmptyState("No files are locked",
                "A lock appears here the moment an agent starts editing a file, and goes when it is released.",
                model.loadedProperty(), model.connectionProperty());
        TablePage<LockRow> page = new TablePage<>("locks", model.locks(),
                row -> String.join(" ", row.file(), row.holder(), row.holderId(), row.state().toString(),
                        row.alsoChangedInDescription()),
                empty, model.nowProperty());
        TableColumn<LockRow, String> file = Columns.textWithTip("File", 300, LockRow::shownFile, LockRow::file);
        TableColumn<LockRow, LockRow.State> state = new TableColumn<>("State");
        state.setPrefWidth(110);
        state.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue().state()));
        page.columns(Columns.machine(model.team()),
                file,
                Columns.textWithTip("Holder", 130, LockRow::holder, LockRow::holderDescription),
                Columns.ago("Since", 90, LockRow::since, model.nowProperty()),
                Columns.ago("Last edit", 90, LockRow::lastEdit, model.nowProperty()),
                state,
                Columns.number("Waiters", 70, LockRow::waiters),
                // What a release would hand on: the holder's work git has not committed.
                Columns.text("Changes", 100, LockRow::changes),
                // The same file held in another worktree or clone of its repository: a conflict to come at merge time.
                Columns.wrapping(Columns.text("Also changed in", 220, LockRow::alsoChangedIn),
                        LockRow::alsoChangedInDescription));
        page.sortBy(file, TableColumn.SortType.ASCENDING);
        Button release = new Button("Force release…");
        release.setId("force-release");
        release.getStyleClass().add(Styles.DANGER);
        release.disableProperty().bind(page.table().getSelectionModel().selectedItemProperty().isNull());
        Runnable forceRelease = () -> {
            LockRow row = page.table().getSelectionModel().getSelectedItem();
            if (row != null) {
                runner.confirmThenRun(actions.confirmForceRelease(row), () -> actions.forceRelease(row));
            }
        };
        release.setOnAction(e -> forceRelease.run());
        MenuItem menuItem = new MenuItem("Force release…");
        menuItem.setOnAction(e -> forceRelease.run());
        // What the holder changed, and what happened to the file, read where the lock shows.
        MenuItem changes = new MenuItem("Show changes");
        changes.setId("show-changes");
        changes.setOnAction(e -> selected(page).ifPresent(row ->
                runner.read("Changes of " + row.shownFile(), actions.changesOf(row))));
        MenuItem history = new MenuItem("Show history");
        history.setId("show-history");
        history.setOnAction(e -> selected(page).ifPresent(row ->
                runner.read("History of " + row.shownFile(), actions.historyOf(row))));
        ContextMenu menu = new ContextMenu(changes, history, menuItem);
        // Delete on a selected row asks the same question; nothing is freed before it is answered.
        page.table().addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.DELETE && !e.isShortcutDown() && !e.isAltDown()
                    && page.table().getSelectionModel().getSelectedItem() != null) {
                e.consume();
                forceRelease.run();
            }
        });
        page.table().setRowFactory(table -> {
            TableRow<LockRow> row = new TableRow<>() {
                @Override
                protected void updateItem(LockRow item, boolean empty) {
                    super.updateItem(item, empty);
                    pseudoClassStateChanged(Pseudo.DEAD, !empty && item != null && item.state() == LockRow.State.HOLDER_DEAD);
                    pseudoClassStateChanged(Pseudo.WAITING, !empty && item != null && item.waiters() > 0);
                }
            };
            row.contextMenuProperty().bind(javafx.beans.binding.Bindings.when(row.emptyProperty())
                    .then((ContextMenu) null).otherwise(menu));
            return row;
        });
        page.action(release);
        return page;
    }

    private static java.util.Optional<LockRow> selected(TablePage<LockRow> page) {
        return java.util.Optional.ofNullable(page.table().getSelectionModel().getSelectedItem());
    }
}
