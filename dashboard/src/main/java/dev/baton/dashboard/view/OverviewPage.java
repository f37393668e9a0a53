package dev.baton.dashboard.view;

import dev.baton.dashboard.graph.WaitGraph;
import dev.baton.dashboard.graph.WaitGraphView;
import dev.baton.dashboard.protocol.DeadlockInfo;
import dev.baton.dashboard.viewmodel.DashboardModel;
import java.util.stream.Collectors;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The first page: the wait-for graph beside the deadlocks and the open negotiations. */
final class OverviewPage {

    private OverviewPage() {
    }

    static Node build(DashboardModel model) {
        EmptyState empty = new EmptyState("No agents yet — run `baton install` and start Claude Code",
                "Sessions appear here as cards; an arrow means one waits for a file another holds.",
                model.loadedProperty(), model.connectionProperty());
        WaitGraphView graph = new WaitGraphView(model.graphProperty(), empty.node());
        Label graphTitle = TablePage.title("Wait-for graph");
        // Waits, deadlocks and negotiations are per machine: in a team, say whose they are.
        graphTitle.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> model.team().enabledProperty().get()
                        ? "Wait-for graph of " + model.team().machineProperty().get() : "Wait-for graph",
                model.team().enabledProperty(), model.team().machineProperty()));
        Label graphHint = new Label();
        graphHint.getStyleClass().add("text-muted");
        graphHint.setWrapText(true);
        graphHint.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> hint(model.graphProperty().get()),
                model.graphProperty()));
        VBox.setVgrow(graph, Priority.ALWAYS);
        VBox left = new VBox(4, graphTitle, graphHint, graph);
        left.setPadding(new Insets(0, 12, 0, 0));

        VBox deadlocks = new VBox(6);
        deadlocks.setId("deadlock-list");
        Label deadlockTitle = TablePage.title("Deadlocks");
        model.graphProperty().addListener((obs, old, fresh) -> showDeadlocks(model, deadlocks));
        showDeadlocks(model, deadlocks);
        TablePage<?> negotiations = NegotiationsPage.build("overview-negotiations", model, true);
        VBox.setVgrow(negotiations.node(), Priority.ALWAYS);
        VBox right = new VBox(8, deadlockTitle, deadlocks, TablePage.title("Negotiations"), negotiations.node());
        right.setPadding(new Insets(0, 0, 0, 12));

        SplitPane split = new SplitPane(left, right);
        split.setDividerPositions(0.58);
        split.setId("overview-page");
        split.getStyleClass().add("overview");
        return split;
    }

    private static String hint(WaitGraph graph) {
        if (graph.nodes().isEmpty()) {
            return "";
        }
        String waits = graph.edges().isEmpty() ? "Nobody is waiting: every session can edit what it holds."
                : graph.hasDeadlock() ? "Red arrows form a deadlock: each waits for the next; the victim is asked to release."
                : "An arrow points from a waiting session to the holder of the file it names.";
        return graph.hasOverlap() ? waits + " A dashed amber line joins two sessions changing the same file in two copies"
                + " of its repository: their changes meet when the branches are merged." : waits;
    }

    private static void showDeadlocks(DashboardModel model, VBox box) {
        box.getChildren().clear();
        WaitGraph graph = model.graphProperty().get();
        if (model.board().deadlocks().isEmpty() && !graph.hasDeadlock()) {
            Label none = new Label("None.");
            none.getStyleClass().add("text-muted");
            box.getChildren().add(none);
            return;
        }
        for (DeadlockInfo deadlock : model.board().deadlocks()) {
            box.getChildren().add(card(model, deadlock));
        }
        if (model.board().deadlocks().isEmpty()) {
            String victims = graph.nodes().stream().filter(WaitGraph.Node::victim).map(WaitGraph.Node::label)
                    .collect(Collectors.joining(", "));
            Label pending = new Label("A cycle of waits (not yet reported by the sidecar); likely victim: " + victims);
            pending.setWrapText(true);
            pending.getStyleClass().add("deadlock-card");
            box.getChildren().add(pending);
        }
    }

    private static Node card(DashboardModel model, DeadlockInfo deadlock) {
        String cycle = deadlock.sessions().stream().map(model.board()::label).collect(Collectors.joining(" → "));
        if (!deadlock.sessions().isEmpty()) {
            cycle += " → " + model.board().label(deadlock.sessions().get(0));
        }
        String files = deadlock.files().stream().map(f -> model.board().shownPath(f, deadlock.victim())).collect(Collectors.joining(", "));
        Label label = new Label(cycle + "\non " + files + "\nvictim: " + model.board().label(deadlock.victim()));
        label.setWrapText(true);
        label.getStyleClass().add("deadlock-card");
        return label;
    }
}
