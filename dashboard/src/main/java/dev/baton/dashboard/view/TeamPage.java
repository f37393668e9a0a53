package dev.baton.dashboard.view;

import atlantafx.base.theme.Styles;
import dev.baton.dashboard.viewmodel.DashboardModel;
import dev.baton.dashboard.viewmodel.TeamLockRow;
import dev.baton.dashboard.viewmodel.TeamMachineRow;
import dev.baton.dashboard.viewmodel.TeamModel;
import dev.baton.dashboard.viewmodel.TeamSessionRow;
import java.util.function.Predicate;
import javafx.beans.binding.Bindings;
import javafx.scene.Node;
import javafx.geometry.Orientation;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The Team page, for a sidecar that shares its locks with other machines: how its link to the team's database
 * stands, every machine with its lease, and every file and session held anywhere in the team, each with its machine.
 * This machine's rows are highlighted; a machine whose lease ran out, and its files, are shown as gone.
 */
final class TeamPage {

    private TeamPage() {
    }

    static Node build(DashboardModel model) {
        TeamModel team = model.team();
        Label headline = new Label();
        headline.setId("team-status");
        headline.getStyleClass().addAll(Styles.TITLE_4, "team-status");
        headline.setWrapText(true);
        headline.textProperty().bind(Bindings.createStringBinding(() -> team.enabledProperty().get()
                ? team.headlineProperty().get() : "This sidecar is not in a team",
                team.enabledProperty(), team.headlineProperty()));
        Runnable unreachable = () -> headline.pseudoClassStateChanged(Pseudo.UNREACHABLE,
                team.enabledProperty().get() && !team.connectedProperty().get());
        team.connectedProperty().addListener((obs, old, connected) -> unreachable.run());
        team.enabledProperty().addListener((obs, old, enabled) -> unreachable.run());
        Label detail = new Label();
        detail.setId("team-detail");
        detail.getStyleClass().add(Styles.TEXT_MUTED);
        detail.setWrapText(true);
        detail.textProperty().bind(Bindings.createStringBinding(() -> team.enabledProperty().get()
                ? team.detailProperty().get()
                : "Set BATON_TEAM_URL in the sidecar's environment to share its locks with other machines (docs/TEAM.md).",
                team.enabledProperty(), team.detailProperty()));

        // Three tables share the page's height; the files held get most of it, and each section can be resized.
        SplitPane sections = new SplitPane(
                section("Machines", machines(model, team)),
                section("Files held in the team", locks(model, team)),
                section("Sessions holding files", sessions(model, team)));
        sections.setOrientation(Orientation.VERTICAL);
        sections.setDividerPositions(0.26, 0.72);
        sections.getStyleClass().add("team-sections");
        VBox.setVgrow(sections, Priority.ALWAYS);
        VBox page = new VBox(8, new VBox(2, headline, detail), sections);
        page.setId("team-page");
        return page;
    }

    /** A table with its title in its toolbar, beside the filter box. */
    private static Node section(String title, TablePage<?> table) {
        table.action(TablePage.title(title));
        Node node = table.node();
        if (node instanceof Region region) {
            region.setMinHeight(0);
        }
        return node;
    }

    private static TablePage<TeamMachineRow> machines(DashboardModel model, TeamModel team) {
        TablePage<TeamMachineRow> page = new TablePage<>("team-machines", team.machines(),
                row -> String.join(" ", row.machine(), row.host(), row.lease()),
                empty(model, "No machine has renewed a lease yet"), model.nowProperty());
        TableColumn<TeamMachineRow, String> name = Columns.text("Machine", 140, TeamMachineRow::shownMachine);
        page.columns(name,
                Columns.text("Host", 140, TeamMachineRow::host),
                Columns.text("Lease", 80, TeamMachineRow::lease),
                Columns.ago("Renewed", 90, TeamMachineRow::renewedAt, model.nowProperty()),
                Columns.number("Sessions", 80, TeamMachineRow::sessions),
                Columns.number("Locks", 70, TeamMachineRow::locks));
        page.sortBy(name, TableColumn.SortType.ASCENDING);
        mark(page, TeamMachineRow::local, TeamMachineRow::leaseExpired);
        return page;
    }

    private static TablePage<TeamLockRow> locks(DashboardModel model, TeamModel team) {
        TablePage<TeamLockRow> page = new TablePage<>("team-locks", team.locks(),
                row -> String.join(" ", row.machine(), row.repository(), row.path(), row.holder(), row.session(),
                        row.agent(), row.plan()),
                empty(model, "No file is held anywhere in the team"), model.nowProperty());
        TableColumn<TeamLockRow, String> machine = Columns.text("Machine", 100, TeamLockRow::machine);
        page.columns(machine,
                Columns.text("Repository", 200, TeamLockRow::repository),
                Columns.text("Path", 220, TeamLockRow::path),
                Columns.textWithTip("Holder", 120, TeamLockRow::holder, TeamLockRow::holderDescription),
                Columns.text("Agent", 100, TeamLockRow::agent),
                Columns.ago("Since", 90, TeamLockRow::since, model.nowProperty()),
                Columns.text("Lease", 70, TeamLockRow::lease),
                Columns.wrapping(Columns.text("Plan", 200, TeamLockRow::plan)));
        page.sortBy(machine, TableColumn.SortType.ASCENDING);
        mark(page, TeamLockRow::local, TeamLockRow::leaseExpired);
        return page;
    }

    private static TablePage<TeamSessionRow> sessions(DashboardModel model, TeamModel team) {
        TablePage<TeamSessionRow> page = new TablePage<>("team-sessions", team.sessions(),
                row -> String.join(" ", row.machine(), row.session(), row.agent(), row.name(), row.plan()),
                empty(model, "No session holds a file anywhere in the team"), model.nowProperty());
        TableColumn<TeamSessionRow, String> machine = Columns.text("Machine", 100, TeamSessionRow::machine);
        page.columns(machine,
                Columns.textWithTip("Session", 90, TeamSessionRow::shortSession, TeamSessionRow::session),
                Columns.text("Agent", 100, TeamSessionRow::agent),
                Columns.text("Name", 140, TeamSessionRow::name),
                Columns.number("Locks", 60, TeamSessionRow::locks),
                Columns.wrapping(Columns.text("Plan", 260, TeamSessionRow::plan)));
        page.sortBy(machine, TableColumn.SortType.ASCENDING);
        mark(page, TeamSessionRow::local, row -> false);
        return page;
    }

    private static EmptyState empty(DashboardModel model, String headline) {
        return new EmptyState(headline, "The team is read from the sidecar every few seconds.",
                model.loadedProperty(), model.connectionProperty());
    }

    /** Highlights this machine's rows, and shows the rows of a machine whose lease ran out as gone. */
    private static <R> void mark(TablePage<R> page, Predicate<R> local, Predicate<R> expired) {
        page.table().setRowFactory(table -> new TableRow<>() {
            @Override
            protected void updateItem(R item, boolean empty) {
                super.updateItem(item, empty);
                pseudoClassStateChanged(Pseudo.LOCAL, !empty && item != null && local.test(item));
                pseudoClassStateChanged(Pseudo.DEAD, !empty && item != null && expired.test(item));
            }
        });
    }
}
