package dev.baton.dashboard.view;

import atlantafx.base.theme.Styles;
import dev.baton.dashboard.viewmodel.DashboardModel;
import dev.baton.dashboard.viewmodel.SessionRow;
import dev.baton.dashboard.viewmodel.SupervisorActions;
import javafx.scene.control.Button;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;

/** The Sessions page: every agent session, what it holds, whom it waits for, and its plan. */
final class SessionsPage {

    private SessionsPage() {
    }

    static TablePage<SessionRow> build(DashboardModel model, SupervisorActions actions, ActionRunner runner) {
        EmptyState empty = new EmptyState("No agents yet — run `baton install` and start Claude Code",
                "Every agent session that edits through Baton appears here with its locks and plan.",
                model.loadedProperty(), model.connectionProperty());
        TablePage<SessionRow> page = new TablePage<>("sessions", model.sessions(),
                row -> String.join(" ", row.id(), row.agent(), row.label(), row.waitingFor(), row.plan()),
                empty, model.nowProperty());
        TableColumn<SessionRow, ?> started = Columns.ago("Started", 90, SessionRow::startedAt, model.nowProperty());
        page.columns(
                Columns.machine(model.team()),
                Columns.text("Agent", 100, SessionRow::agent),
                Columns.text("Session", 90, SessionRow::shortId),
                Columns.textWithTip("Name / cwd", 200, SessionRow::label, SessionRow::id),
                Columns.text("Process", 70, SessionRow::alive),
                Columns.ago("Heartbeat", 90, SessionRow::lastHeartbeat, model.nowProperty()),
                started,
                Columns.number("Locks", 60, SessionRow::locksHeld),
                Columns.wrapping(Columns.text("Waiting for", 180, SessionRow::waitingFor)),
                Columns.wrapping(Columns.text("Plan", 260, SessionRow::plan)));
        page.sortBy(started, TableColumn.SortType.ASCENDING);
        page.table().setRowFactory(table -> new TableRow<>() {
            @Override
            protected void updateItem(SessionRow item, boolean empty) {
                super.updateItem(item, empty);
                pseudoClassStateChanged(Pseudo.DEAD, !empty && item != null && item.processGone());
                pseudoClassStateChanged(Pseudo.WAITING, !empty && item != null && !item.waitingFor().isEmpty());
            }
        });
        Button end = new Button("End session…");
        end.setId("end-session");
        end.getStyleClass().add(Styles.DANGER);
        end.disableProperty().bind(page.table().getSelectionModel().selectedItemProperty().isNull());
        end.setOnAction(e -> {
            SessionRow row = page.table().getSelectionModel().getSelectedItem();
            if (row != null) {
                runner.confirmThenRun(actions.confirmEndSession(row), () -> actions.endSession(row));
            }
        });
        page.action(end);
        return page;
    }
}
