package dev.baton.dashboard.graph;

import java.util.ArrayList;
import java.util.List;
import javafx.geometry.BoundingBox;
import javafx.geometry.Bounds;
import javafx.geometry.Point2D;

/**
 * Where each arrow's file label goes: on its own curve, as near the middle as it can sit without covering another
 * label or a session card. Two arrows that cross meet in the middle; their labels must not.
 */
final class EdgeLabels {

    /** An arrow's quadratic curve. */
    record Curve(Point2D start, Point2D control, Point2D end) {
        Point2D at(double t) {
            double u = 1 - t;
            return start.multiply(u * u).add(control.multiply(2 * u * t)).add(end.multiply(t * t));
        }
    }

    /** Points along a curve to try, middle first, then outwards on alternate sides. */
    private static final double[] ALONG = {0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78};
    /** Space kept free around a label. */
    private static final double GAP = 3;

    private EdgeLabels() {
    }

    /**
     * @param sizes each label's width and height, in the order of {@code curves}
     * @param cards what labels must not cover besides each other
     * @return each label's box, in the order of {@code curves}
     */
    static List<Bounds> place(List<Curve> curves, List<Point2D> sizes, List<Bounds> cards) {
        List<Bounds> placed = new ArrayList<>();
        for (int i = 0; i < curves.size(); i++) {
            Bounds best = null;
            double bestCovered = Double.MAX_VALUE;
            for (double t : ALONG) {
                Bounds box = centredAt(curves.get(i).at(t), sizes.get(i));
                double covered = covered(box, placed) + covered(box, cards);
                if (covered < bestCovered) {
                    best = box;
                    bestCovered = covered;
                }
                if (covered == 0) {
                    break;
                }
            }
            placed.add(best);
        }
        return placed;
    }

    private static Bounds centredAt(Point2D centre, Point2D size) {
        return new BoundingBox(centre.getX() - size.getX() / 2, centre.getY() - size.getY() / 2, size.getX(), size.getY());
    }

    /** How much of {@code box} (with its gap) the others cover, in square pixels. */
    private static double covered(Bounds box, List<Bounds> others) {
        double total = 0;
        for (Bounds other : others) {
            double w = Math.min(box.getMaxX() + GAP, other.getMaxX()) - Math.max(box.getMinX() - GAP, other.getMinX());
            double h = Math.min(box.getMaxY() + GAP, other.getMaxY()) - Math.max(box.getMinY() - GAP, other.getMinY());
            if (w > 0 && h > 0) {
                total += w * h;
            }
        }
        return total;
    }
}
