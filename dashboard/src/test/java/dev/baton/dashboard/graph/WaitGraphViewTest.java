package dev.baton.dashboard.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.dashboard.FxRuntime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The drawn wait-for graph: labels stay readable however the arrows run. */
class WaitGraphViewTest {

    @BeforeAll
    static void startFx() throws InterruptedException {
        FxRuntime.start();
    }

    private static List<Bounds> labelBoxes(WaitGraph graph, double width, double height) throws Exception {
        CompletableFuture<List<Bounds>> boxes = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                WaitGraphView view = new WaitGraphView(new SimpleObjectProperty<>(graph), new Label("empty"));
                StackPane root = new StackPane(view);
                new Scene(root, width, height);
                for (int pass = 0; pass < 2; pass++) { // as two pulses would: the resize redraws, then styles
                    root.applyCss();
                    root.layout();
                }
                boxes.complete(view.lookupAll(".graph-edge-label").stream().map(Node::getBoundsInParent).toList());
            } catch (RuntimeException e) {
                boxes.completeExceptionally(e);
            }
        });
        return boxes.get(10, TimeUnit.SECONDS);
    }

    private static WaitGraph.Node session(String id) {
        return new WaitGraph.Node(id, id, "claude-code", false, false);
    }

    private static void assertApart(List<Bounds> boxes) {
        for (int i = 0; i < boxes.size(); i++) {
            assertThat(boxes.get(i).getWidth()).as("label %d is drawn", i).isGreaterThan(20);
            for (int j = i + 1; j < boxes.size(); j++) {
                assertThat(boxes.get(i).intersects(boxes.get(j))).as("label %d and %d: %s", i, j, boxes).isFalse();
            }
        }
    }

    @Test
    void theLabelsOfArrowsCrossingInTheMiddleDoNotOverlap() throws Exception {
        // The first six sessions sit left, right, top, bottom, upper left and lower right: the three arrows
        // left→right, top→bottom and upper left→lower right all cross in the middle of the graph.
        WaitGraph crossing = new WaitGraph(List.of(session("left"), session("right"), session("top"), session("bottom"),
                session("upper-left"), session("lower-right")),
                List.of(new WaitGraph.Edge("left", "right", List.of("dx.txt"), false),
                        new WaitGraph.Edge("top", "bottom", List.of("2.txt"), false),
                        new WaitGraph.Edge("upper-left", "lower-right", List.of("src/billing/Invoice.java"), false)));

        for (double[] size : new double[][] {{1440, 600}, {900, 500}, {700, 420}}) {
            List<Bounds> boxes = labelBoxes(crossing, size[0], size[1]);

            assertThat(boxes).hasSize(3);
            assertApart(boxes);
        }
    }

    @Test
    void longFileNamesOnArrowsCrossingInTheMiddleStayApartInAnyOrder() throws Exception {
        List<WaitGraph.Node> sessions = List.of(session("auth"), session("billing"), session("docs"), session("tests"),
                session("cart"), session("api"));
        List<WaitGraph.Edge> edges = List.of(new WaitGraph.Edge("auth", "billing", List.of("src/billing/Invoice.java"), false),
                new WaitGraph.Edge("docs", "tests", List.of("src/billing/InvoiceTest.java"), false),
                new WaitGraph.Edge("cart", "api", List.of("src/cart/Cart.java"), false));
        for (int first = 0; first < edges.size(); first++) {
            List<WaitGraph.Edge> rotated = new java.util.ArrayList<>(edges.subList(first, edges.size()));
            rotated.addAll(edges.subList(0, first));

            List<Bounds> boxes = labelBoxes(new WaitGraph(sessions, rotated), 650, 700);

            assertThat(boxes).hasSize(3);
            assertApart(boxes);
        }
    }

    @Test
    void theLabelsOfADeadlockAndOfArrowsCrossingItAllStayApart() throws Exception {
        WaitGraph busy = new WaitGraph(List.of(session("a"), session("b"), session("c"), session("d"), session("e")),
                List.of(new WaitGraph.Edge("a", "b", List.of("dx.txt"), true),
                        new WaitGraph.Edge("b", "a", List.of("2.txt"), true),
                        new WaitGraph.Edge("c", "d", List.of("docs/architecture.md"), false),
                        new WaitGraph.Edge("e", "c", List.of("pom.xml"), false)));

        List<Bounds> boxes = labelBoxes(busy, 1000, 520);

        assertThat(boxes).hasSize(4);
        assertApart(boxes);
    }
}
