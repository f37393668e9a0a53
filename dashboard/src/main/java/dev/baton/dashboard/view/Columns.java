package dev.baton.dashboard.view;

import dev.baton.dashboard.viewmodel.RelativeTime;
import dev.baton.dashboard.viewmodel.TeamModel;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.function.BiConsumer;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.Tooltip;

/** Builds the kinds of table column the dashboard uses: text, numbers, and times relative to the model's now. */
final class Columns {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    /** A header's padding, sort arrow and a little air, around the title's text (Primer's header style). */
    private static final double HEADER_CHROME = 36;

    private Columns() {
    }

    /** How wide a column must be for its whole title to show in the header. */
    static double headerWidth(String title) {
        javafx.scene.text.Text text = new javafx.scene.text.Text(title == null ? "" : title);
        text.setFont(javafx.scene.text.Font.font(javafx.scene.text.Font.getDefault().getFamily(),
                javafx.scene.text.FontWeight.BOLD, 14));
        return Math.ceil(text.getLayoutBounds().getWidth()) + HEADER_CHROME;
    }

    static <R> TableColumn<R, String> text(String title, double width, Function<R, String> value) {
        TableColumn<R, String> column = new TableColumn<>(title);
        column.setPrefWidth(width);
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(orEmpty(value.apply(cell.getValue()))));
        column.getProperties().put(ColumnFit.SHOWN, value);
        return column;
    }

    /**
     * Marks a column of free text (a plan, a reason, a message) whose cells wrap it onto more lines rather than cut
     * it, so that the column may be narrower than its longest text.
     */
    static <R> TableColumn<R, String> wrapping(TableColumn<R, String> column) {
        return wrapping(column, row -> null);
    }

    /** A wrapping column whose cells have a tooltip (none where {@code tip} gives no text). */
    static <R> TableColumn<R, String> wrapping(TableColumn<R, String> column, Function<R, String> tip) {
        column.getProperties().put(ColumnFit.WRAPS, true);
        column.setCellFactory(c -> new TableCell<>() {
            {
                setWrapText(true);
            }

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                R row = empty || getTableRow() == null ? null : getTableRow().getItem();
                setTooltip(tooltip(row == null ? null : tip.apply(row)));
            }

            // A row asks its cells for their height without a width; the text wraps to the column's.
            @Override
            protected double computePrefHeight(double width) {
                return super.computePrefHeight(width > 0 ? width : getTableColumn().getWidth());
            }
        });
        return column;
    }

    /**
     * The machine of this sidecar's rows (all of them are this machine's), shown only while the sidecar is in a team,
     * so that its tables read like the team's, where every row names its machine.
     */
    static <R> TableColumn<R, String> machine(TeamModel team) {
        TableColumn<R, String> column = text("Machine", 100, row -> team.machineProperty().get());
        column.visibleProperty().bind(team.enabledProperty());
        return column;
    }

    /** Text with a tooltip, e.g. a repo-relative path whose tooltip is the absolute path. */
    static <R> TableColumn<R, String> textWithTip(String title, double width, Function<R, String> value, Function<R, String> tip) {
        TableColumn<R, String> column = text(title, width, value);
        column.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                R row = empty || getTableRow() == null ? null : getTableRow().getItem();
                setTooltip(row == null ? null : new Tooltip(tip.apply(row)));
            }
        });
        return column;
    }

    static <R> TableColumn<R, Number> number(String title, double width, Function<R, Integer> value) {
        TableColumn<R, Number> column = new TableColumn<>(title);
        column.setPrefWidth(width);
        column.getProperties().put(ColumnFit.SHOWN, (Function<R, String>) row -> String.valueOf(value.apply(row)));
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
        column.setStyle("-fx-alignment: CENTER-RIGHT;");
        return column;
    }

    /** An instant shown as "40 s ago" against {@code now}, sorted by the instant itself. */
    static <R> TableColumn<R, Instant> ago(String title, double width, Function<R, Instant> value,
                                           ReadOnlyObjectProperty<Instant> now) {
        TableColumn<R, Instant> column = instant(title, width, value, (cell, item) -> {
            cell.setText(RelativeTime.ago(item, now.get()));
            cell.setTooltip(item == null ? null : new Tooltip(item.toString()));
        });
        column.getProperties().put(ColumnFit.SHOWN, (Function<R, String>) row -> RelativeTime.ago(value.apply(row), now.get()));
        // The age grows every second; the column is sized for the widest one of its first hour, so it does not twitch.
        column.getProperties().put(ColumnFit.WIDEST, "59 min ago");
        return column;
    }

    /** An instant shown as a wall-clock time (for the activity log). */
    static <R> TableColumn<R, Instant> clock(String title, double width, Function<R, Instant> value) {
        TableColumn<R, Instant> column = instant(title, width, value,
                (cell, item) -> cell.setText(item == null ? null : CLOCK.format(item)));
        column.getProperties().put(ColumnFit.SHOWN, (Function<R, String>) row -> {
            Instant at = value.apply(row);
            return at == null ? "" : CLOCK.format(at);
        });
        return column;
    }

    /** A column of instants, sorted by the instant (none first); {@code show} fills a cell that has a row. */
    private static <R> TableColumn<R, Instant> instant(String title, double width, Function<R, Instant> value,
                                                       BiConsumer<TableCell<R, Instant>, Instant> show) {
        TableColumn<R, Instant> column = new TableColumn<>(title);
        column.setPrefWidth(width);
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
        column.setComparator(Comparator.nullsFirst(Comparator.naturalOrder()));
        column.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(Instant item, boolean empty) {
                super.updateItem(item, empty);
                if (empty) {
                    setText(null);
                    setTooltip(null);
                } else {
                    show.accept(this, item);
                }
            }
        });
        return column;
    }

    private static Tooltip tooltip(String text) {
        return text == null || text.isEmpty() ? null : new Tooltip(text);
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }
}
