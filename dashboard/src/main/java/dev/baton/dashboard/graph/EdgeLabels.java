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

        /** The unit normal of the curve at {@code t}. */
        Point2D normalAt(double t) {
            Point2D tangent = control.subtract(start).multiply(2 * (1 - t)).add(end.subtract(control).multiply(2 * t));
            Point2D normal = new Point2D(-tangent.getY(), tangent.getX());
            return normal.magnitude() == 0 ? new Point2D(0, 1) : normal.normalize();
        }
    }

    /** Points along a curve to try, middle first, then outwards on alternate sides. */
    private static final double[] ALONG = {0.5, 0.45, 0.55, 0.4, 0.6, 0.35, 0.65, 0.3, 0.7, 0.25, 0.75, 0.2, 0.8};
    /** Steps beside the curve to try at each point, in label heights: on it first, then either side. */
    private static final double[] BESIDE = {0, 1, -1, 2, -2};
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
            Curve curve = curves.get(i);
            Point2D size = sizes.get(i);
            Bounds best = null;
            double bestCost = Double.MAX_VALUE;
            // Nearest the middle of the curve wins among the places that cover nothing; if none is free, the least covered.
            search:
            for (double beside : BESIDE) {
                for (double t : ALONG) {
                    Point2D centre = curve.at(t).add(curve.normalAt(t).multiply(beside * (size.getY() + GAP)));
                    Bounds box = centredAt(centre, size);
                    double covered = covered(box, placed) + covered(box, cards);
                    double cost = covered * 1_000 + Math.abs(t - 0.5) * 100 + Math.abs(beside) * 40;
                    if (cost < bestCost) {
                        best = box;
                        bestCost = cost;
                    }
                    if (covered == 0 && beside == 0) {
                        break search;
                    }
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
