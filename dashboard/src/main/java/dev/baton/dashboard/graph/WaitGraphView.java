package dev.baton.dashboard.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Bounds;
import javafx.geometry.Point2D;
import javafx.scene.Group;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.Pane;
import javafx.scene.layout.VBox;
import javafx.scene.shape.Line;
import javafx.scene.shape.Polygon;
import javafx.scene.shape.QuadCurve;

/**
 * Draws a {@link WaitGraph}: session cards at their stable {@link GraphLayout} slots, an arrow per
 * waiter→holder pair labelled with the files, deadlock cycles in red and the victim marked, and a dashed
 * line, with no arrowhead, between two sessions changing the same files in two copies of their repository.
 */
public final class WaitGraphView extends Pane {

    static final double NODE_WIDTH = 150;
    static final double NODE_HEIGHT = 58;
    private static final double BEND = 36;

    private final GraphLayout layout = new GraphLayout();
    private final Group edges = new Group();
    private final Group nodes = new Group();
    private final Node empty;
    private WaitGraph graph = WaitGraph.empty();
    /** Each arrow's label with the curve it belongs to, placed at layout time, once the labels know their size. */
    private final List<Map.Entry<Label, EdgeLabels.Curve>> labels = new ArrayList<>();

    public WaitGraphView(ObservableValue<WaitGraph> source, Node empty) {
        this.empty = empty;
        getStyleClass().add("wait-graph");
        setId("wait-graph");
        getChildren().addAll(edges, nodes, empty);
        source.addListener((obs, old, fresh) -> show(fresh));
        widthProperty().addListener((obs, old, w) -> redraw());
        heightProperty().addListener((obs, old, h) -> redraw());
        show(source.getValue());
    }

    private void show(WaitGraph fresh) {
        graph = fresh == null ? WaitGraph.empty() : fresh;
        redraw();
    }

    @Override
    protected void layoutChildren() {
        empty.resizeRelocate(0, 0, getWidth(), getHeight());
        List<EdgeLabels.Curve> curves = new ArrayList<>();
        List<Point2D> sizes = new ArrayList<>();
        for (Map.Entry<Label, EdgeLabels.Curve> entry : labels) {
            Label label = entry.getKey();
            label.applyCss(); // a label made by a resize during this layout pass has not been styled yet
            label.autosize();
            curves.add(entry.getValue());
            sizes.add(new Point2D(label.getWidth(), label.getHeight()));
        }
        List<Bounds> cards = nodes.getChildren().stream().map(Node::getBoundsInParent).toList();
        List<Bounds> boxes = EdgeLabels.place(curves, sizes, cards);
        for (int i = 0; i < labels.size(); i++) {
            labels.get(i).getKey().relocate(boxes.get(i).getMinX(), boxes.get(i).getMinY());
        }
    }

    private void redraw() {
        empty.setVisible(graph.nodes().isEmpty());
        Map<String, GraphLayout.Point> unit = layout.place(graph.nodes().stream().map(WaitGraph.Node::id).toList());
        double scale = Math.max(60, Math.min(getWidth() - NODE_WIDTH - 20, getHeight() - NODE_HEIGHT - 40) / 2
                / Math.max(1.0, layout.extent()));
        double cx = getWidth() / 2;
        double cy = getHeight() / 2;
        Map<String, Point2D> centres = new HashMap<>();
        unit.forEach((id, p) -> centres.put(id, new Point2D(cx + p.x() * scale, cy + p.y() * scale)));

        nodes.getChildren().clear();
        for (WaitGraph.Node node : graph.nodes()) {
            nodes.getChildren().add(card(node, centres.get(node.id())));
        }
        edges.getChildren().clear();
        labels.clear();
        for (WaitGraph.Edge edge : graph.edges()) {
            Point2D from = centres.get(edge.from());
            Point2D to = centres.get(edge.to());
            if (from != null && to != null && !from.equals(to)) {
                edges.getChildren().addAll(arrow(edge, from, to));
            }
        }
        for (WaitGraph.Overlap overlap : graph.overlaps()) {
            Point2D one = centres.get(overlap.one());
            Point2D other = centres.get(overlap.other());
            if (one != null && other != null && !one.equals(other)) {
                edges.getChildren().addAll(overlapLine(overlap, one, other));
            }
        }
        requestLayout();
    }

    private static Node card(WaitGraph.Node node, Point2D centre) {
        Label agent = new Label(node.agent() == null ? "session" : node.agent());
        agent.getStyleClass().add("graph-node-agent");
        Label name = new Label(node.label());
        name.getStyleClass().add("graph-node-name");
        VBox card = new VBox(2, agent, name);
        if (node.victim()) {
            Label badge = new Label("victim");
            badge.getStyleClass().add("graph-victim-badge");
            card.getChildren().add(badge);
        }
        card.getStyleClass().add("graph-node");
        if (node.inDeadlock()) {
            card.getStyleClass().add("deadlocked");
        }
        if (node.victim()) {
            card.getStyleClass().add("victim");
        }
        card.setId("node-" + node.id());
        card.setUserData(node);
        card.setPrefSize(NODE_WIDTH, NODE_HEIGHT);
        card.setMinSize(NODE_WIDTH, NODE_HEIGHT);
        card.setMaxSize(NODE_WIDTH, Double.MAX_VALUE);
        card.relocate(centre.getX() - NODE_WIDTH / 2, centre.getY() - NODE_HEIGHT / 2);
        return card;
    }

    private List<Node> arrow(WaitGraph.Edge edge, Point2D from, Point2D to) {
        Point2D direction = to.subtract(from).normalize();
        Point2D normal = new Point2D(direction.getY(), -direction.getX());
        // Bend every arrow to its own left, so A→B and B→A of a deadlock are two separate curves.
        Point2D control = from.midpoint(to).add(normal.multiply(BEND));
        Point2D start = boundary(from, control);
        Point2D end = boundary(to, control);
        QuadCurve curve = new QuadCurve(start.getX(), start.getY(), control.getX(), control.getY(), end.getX(), end.getY());
        curve.getStyleClass().add("graph-edge");
        Point2D tangent = end.subtract(control).normalize();
        Point2D side = new Point2D(-tangent.getY(), tangent.getX());
        Point2D base = end.subtract(tangent.multiply(12));
        Polygon head = new Polygon(end.getX(), end.getY(),
                base.getX() + side.getX() * 6, base.getY() + side.getY() * 6,
                base.getX() - side.getX() * 6, base.getY() - side.getY() * 6);
        head.getStyleClass().add("graph-arrowhead");
        Label label = new Label(String.join(", ", edge.files()));
        label.getStyleClass().add("graph-edge-label");
        labels.add(Map.entry(label, new EdgeLabels.Curve(start, control, end)));
        String id = "edge-" + edge.from() + "-" + edge.to();
        curve.setId(id);
        for (Node part : List.of(curve, head, label)) {
            part.setUserData(edge);
            if (edge.deadlock()) {
                part.getStyleClass().add("deadlock");
            }
        }
        return List.of(curve, head, label);
    }

    /**
     * A straight dashed line between the two cards: arrows bend to their left, so it runs between an arrow each way
     * and is never mistaken for one.
     */
    private List<Node> overlapLine(WaitGraph.Overlap overlap, Point2D one, Point2D other) {
        Point2D start = boundary(one, other);
        Point2D end = boundary(other, one);
        Line line = new Line(start.getX(), start.getY(), end.getX(), end.getY());
        line.getStyleClass().add("graph-overlap");
        line.setId("overlap-" + overlap.one() + "-" + overlap.other());
        Label label = new Label(String.join(", ", overlap.paths()));
        label.getStyleClass().add("graph-overlap-label");
        labels.add(Map.entry(label, new EdgeLabels.Curve(start, start.midpoint(end), end)));
        line.setUserData(overlap);
        label.setUserData(overlap);
        return List.of(line, label);
    }

    /** Where the line from a card's centre towards {@code toward} leaves the card. */
    private static Point2D boundary(Point2D centre, Point2D toward) {
        Point2D d = toward.subtract(centre);
        double halfW = NODE_WIDTH / 2 + 4;
        double halfH = NODE_HEIGHT / 2 + 4;
        double t = Math.min(d.getX() == 0 ? Double.MAX_VALUE : halfW / Math.abs(d.getX()),
                d.getY() == 0 ? Double.MAX_VALUE : halfH / Math.abs(d.getY()));
        return centre.add(d.multiply(Math.min(t, 1.0)));
    }

    public WaitGraph graph() {
        return graph;
    }
}
