package dev.baton.dashboard.view;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.text.Font;
import javafx.scene.text.Text;

/**
 * Sizes a table's columns to what they show: each column at least as wide as its title and its widest cell, so no
 * cell is cut, while the wrapping columns (free text: a plan, a reason, a message) may be narrower than their text
 * and wrap it onto more lines; {@link ColumnLayout} then lays them out in the table's width. Run again whenever the
 * rows or the time they are shown against change.
 */
final class ColumnFit<R> {

    /** The column property under which {@link Columns} keeps what a cell of the column shows for a row. */
    static final String SHOWN = "baton.shown";
    /** The column property that marks a column whose cells wrap their text. */
    static final String WRAPS = "baton.wraps";
    /** The column property holding a text as wide as the widest the column will show soon ("59 min ago"). */
    static final String WIDEST = "baton.widest";

    /** A cell's padding and border around its text (AtlantaFX's Primer cells), and a pixel of rounding. */
    private static final double CELL_CHROME = 20;
    private static final int MEASURED_TEXTS = 4096;

    private final TableView<R> table;
    private final Text ruler = new Text();
    private final ReadOnlyDoubleWrapper least = new ReadOnlyDoubleWrapper();
    // Widths of texts met before: a log of thousands of rows repeats its kinds, names and paths.
    private final Map<String, Double> widths = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Double> eldest) {
            return size() > MEASURED_TEXTS;
        }
    };

    ColumnFit(TableView<R> table) {
        this.table = table;
    }

    /** The narrowest the table can be with every column whole: what the page must leave it. */
    ReadOnlyDoubleProperty leastWidthProperty() {
        return least.getReadOnlyProperty();
    }

    /** Sets each column's least and preferred width from the rows the table holds now. */
    void fit() {
        Font font = cellFont();
        if (!font.equals(ruler.getFont())) {
            ruler.setFont(font);
            widths.clear();
        }
        double total = 0;
        for (TableColumn<R, ?> column : table.getVisibleLeafColumns()) {
            Function<R, String> shown = shown(column);
            boolean wraps = Boolean.TRUE.equals(column.getProperties().get(WRAPS));
            double title = Columns.headerWidth(column.getText());
            double whole = Math.max(title, width((String) column.getProperties().get(WIDEST)));
            double unbroken = title;
            for (R row : table.getItems()) {
                String text = shown.apply(row);
                whole = Math.max(whole, width(text));
                if (wraps) {
                    for (String word : text.split("\\s+")) {
                        unbroken = Math.max(unbroken, width(word));
                    }
                }
            }
            double narrowest = wraps ? unbroken : whole;
            column.setMinWidth(narrowest);
            column.setPrefWidth(whole);
            total += narrowest;
        }
        least.set(total + table.snappedLeftInset() + table.snappedRightInset());
        // The table lays its columns out again only when its own width changes; the widths above changed now.
        table.getColumnResizePolicy().call(new TableView.ResizeFeatures<>(table, null, 0.0));
    }

    /** What a cell of the column shows for a row: as {@link Columns} recorded it, else its value as text. */
    @SuppressWarnings("unchecked")
    private Function<R, String> shown(TableColumn<R, ?> column) {
        Object recorded = column.getProperties().get(SHOWN);
        if (recorded != null) {
            return row -> Objects.toString(((Function<R, String>) recorded).apply(row), "");
        }
        return row -> Objects.toString(column.getCellData(row), "");
    }

    /** The width a cell needs to show {@code text} whole: its widest line and the cell's padding. */
    private double width(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        return widths.computeIfAbsent(text, key -> {
            ruler.setText(key);
            return Math.ceil(ruler.getLayoutBounds().getWidth()) + CELL_CHROME;
        });
    }

    /** The font the table's cells are drawn in, once styled; the theme's default before that. */
    private Font cellFont() {
        if (table.lookup(".table-cell") instanceof Labeled cell && cell.getFont() != null) {
            return cell.getFont();
        }
        return Font.font(Font.getDefault().getFamily(), 14);
    }
}
