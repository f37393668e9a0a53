package dev.baton.dashboard.view;

import java.util.List;
import javafx.scene.control.ConstrainedColumnResizeBase;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.util.Callback;

/**
 * Lays a table's columns out across its width from the widths {@link ColumnFit} set: every column that cannot wrap
 * at its preferred width (its widest cell), the wrapping columns from their least width up towards theirs, and
 * whatever is left to the last column. JavaFX's own constrained policies take space from every column alike, so a
 * short column was cut while a long text kept its room. A column the user drags keeps the width given to it.
 */
// TableView takes its policy as a Callback of the raw ResizeFeatures type.
@SuppressWarnings({"rawtypes", "unchecked"})
final class ColumnLayout extends ConstrainedColumnResizeBase implements Callback<TableView.ResizeFeatures, Boolean> {

    /** The column property holding the width a user dragged the column to. */
    static final String DRAGGED = "baton.dragged";

    @Override
    public Boolean call(TableView.ResizeFeatures features) {
        double room = features.getContentWidth();
        if (room <= 0) {
            return false;
        }
        if (features.getColumn() != null) {
            TableColumn<?, ?> dragged = features.getColumn();
            dragged.getProperties().put(DRAGGED, Math.max(dragged.getMinWidth(), dragged.getWidth() + features.getDelta()));
        }
        List<TableColumn<?, ?>> columns = features.getTable().getVisibleLeafColumns();
        double[] widths = new double[columns.size()];
        double used = 0;
        double growable = 0;
        for (int i = 0; i < columns.size(); i++) {
            TableColumn<?, ?> column = columns.get(i);
            Object dragged = column.getProperties().get(DRAGGED);
            widths[i] = dragged instanceof Double width ? width
                    : wraps(column) ? column.getMinWidth() : Math.max(column.getMinWidth(), column.getPrefWidth());
            used += widths[i];
            if (dragged == null && wraps(column)) {
                growable += Math.max(0, column.getPrefWidth() - widths[i]);
            }
        }
        double left = room - used;
        if (left > 0 && growable > 0) {
            // The wrapping columns grow towards one line each, in proportion to how much more they want.
            double share = Math.min(1, left / growable);
            for (int i = 0; i < columns.size(); i++) {
                TableColumn<?, ?> column = columns.get(i);
                if (!column.getProperties().containsKey(DRAGGED) && wraps(column)) {
                    double more = Math.max(0, column.getPrefWidth() - widths[i]) * share;
                    widths[i] += more;
                    left -= more;
                }
            }
        }
        if (left > 0 && widths.length > 0) {
            widths[widths.length - 1] += left;
        }
        for (int i = 0; i < columns.size(); i++) {
            features.setColumnWidth(columns.get(i), Math.floor(widths[i]));
        }
        return true;
    }

    private static boolean wraps(TableColumn<?, ?> column) {
        return Boolean.TRUE.equals(column.getProperties().get(ColumnFit.WRAPS));
    }
}
