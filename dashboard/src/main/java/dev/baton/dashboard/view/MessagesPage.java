package dev.baton.dashboard.view;

import dev.baton.dashboard.viewmodel.DashboardModel;
import dev.baton.dashboard.viewmodel.MessageRow;
import javafx.scene.control.TableColumn;

/** The Messages page: what the sessions said to each other (and to everyone), and who has read it. */
final class MessagesPage {

    private MessagesPage() {
    }

    static TablePage<MessageRow> build(DashboardModel model) {
        EmptyState empty = new EmptyState("No messages yet",
                "Agents message each other with `baton msg send TO TEXT` (TO is a session id, or `*` for everyone).",
                model.loadedProperty(), model.connectionProperty());
        TablePage<MessageRow> page = new TablePage<>("messages", model.messages(),
                row -> String.join(" ", row.from(), row.to(), row.text(), row.read()), empty, model.nowProperty());
        TableColumn<MessageRow, ?> at = Columns.ago("Time", 90, MessageRow::at, model.nowProperty());
        page.columns(
                Columns.machine(model.team()),
                Columns.text("From", 110, MessageRow::from),
                Columns.text("To", 110, MessageRow::to),
                at,
                Columns.text("Read", 70, MessageRow::read),
                Columns.wrapping(Columns.text("Text", 460, MessageRow::text)));
        page.sortBy(at, TableColumn.SortType.DESCENDING);
        return page;
    }
}
