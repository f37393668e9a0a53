package dev.baton.dashboard.view;

import dev.baton.dashboard.model.ActivityEntry;
import dev.baton.dashboard.viewmodel.DashboardModel;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.TableColumn;

/** The Activity page: the live event log, newest first, with search. */
final class ActivityPage {

    private ActivityPage() {
    }

    static TablePage<ActivityEntry> build(DashboardModel model) {
        EmptyState empty = new EmptyState("Nothing has happened yet",
                "Every lock, wait, negotiation and message appears here as it happens.",
                model.loadedProperty(), model.connectionProperty());
        TablePage<ActivityEntry> page = new TablePage<>("activity", model.activity(),
                entry -> entry.kind() + " " + entry.summary(), empty, model.nowProperty());
        TableColumn<ActivityEntry, Number> seq = new TableColumn<>("#");
        seq.setPrefWidth(60);
        seq.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue().seq()));
        page.columns(seq,
                Columns.clock("Time", 80, ActivityEntry::at),
                Columns.text("Kind", 150, ActivityEntry::kind),
                Columns.wrapping(Columns.text("What happened", 600, ActivityEntry::summary)));
        page.sortBy(seq, TableColumn.SortType.DESCENDING);
        return page;
    }
}
