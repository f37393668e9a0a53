package dev.baton.dashboard.view;

import java.time.Instant;
import java.util.Locale;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.value.ObservableValue;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import javafx.collections.transformation.SortedList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * One page of the dashboard built around a live table: a title, a filter box matching any visible text,
 * action buttons, and an empty state that says what to do. Sorting survives live updates.
 */
final class TablePage<R> {

    private final TableView<R> table = new TableView<>();
    private final ColumnFit<R> fit = new ColumnFit<>(table);
    private final TextField filter = new TextField();
    private final HBox actions = new HBox(8);
    private final VBox root;
    private final FilteredList<R> filtered;

    TablePage(String id, ObservableList<R> rows, Function<R, String> searchable, EmptyState empty,
              ReadOnlyObjectProperty<Instant> now) {
        filtered = new FilteredList<>(rows);
        SortedList<R> sorted = new SortedList<>(filtered);
        sorted.comparatorProperty().bind(table.comparatorProperty());
        table.setItems(sorted);
        table.setId(id + "-table");
        table.setColumnResizePolicy(new ColumnLayout());
        table.getStyleClass().addAll("live-table");
        // A page beside another (the overview's negotiations beside the graph) leaves the table what it needs.
        table.minWidthProperty().bind(fit.leastWidthProperty());
        table.setPlaceholder(empty.node());
        filter.setId(id + "-filter");
        filter.setPromptText("Filter…");
        filter.setPrefColumnCount(22);
        filter.textProperty().addListener((obs, old, text) -> {
            String needle = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
            filtered.setPredicate(needle.isEmpty() ? null
                    : row -> searchable.apply(row).toLowerCase(Locale.ROOT).contains(needle));
        });
        // Relative times and countdowns are drawn against now; redraw the visible cells as it moves, and fit the
        // columns to what they show now, as when rows change.
        now.addListener((obs, old, fresh) -> {
            fit.fit();
            table.refresh();
        });
        sorted.addListener((javafx.collections.ListChangeListener<R>) change -> fit.fit());
        // A column shown or hidden (the machine column as the sidecar joins or leaves a team) changes what must fit.
        table.getVisibleLeafColumns().addListener((javafx.collections.ListChangeListener<TableColumn<R, ?>>) change -> fit.fit());
        // The cells' font is known once the table is styled.
        table.skinProperty().addListener((obs, old, skin) -> fit.fit());
        actions.setAlignment(Pos.CENTER_LEFT);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox toolbar = new HBox(8, actions, spacer, filter);
        toolbar.setAlignment(Pos.CENTER_LEFT);
        toolbar.setPadding(new Insets(0, 0, 8, 0));
        VBox.setVgrow(table, Priority.ALWAYS);
        root = new VBox(toolbar, table);
        root.setId(id + "-page");
    }

    @SafeVarargs
    final TablePage<R> columns(TableColumn<R, ?>... columns) {
        table.getColumns().addAll(java.util.Arrays.asList(columns));
        fit.fit();
        return this;
    }

    /** The narrowest this page's table can be with every column and cell whole (wrapping ones wrapped). */
    javafx.beans.property.ReadOnlyDoubleProperty leastWidthProperty() {
        return fit.leastWidthProperty();
    }

    TablePage<R> action(Node button) {
        actions.getChildren().add(button);
        return this;
    }

    TablePage<R> sortBy(TableColumn<R, ?> column, TableColumn.SortType type) {
        column.setSortType(type);
        table.getSortOrder().add(column);
        return this;
    }

    TableView<R> table() {
        return table;
    }

    ObservableValue<R> selected() {
        return table.getSelectionModel().selectedItemProperty();
    }

    Node node() {
        return root;
    }

    static Label title(String text) {
        Label label = new Label(text);
        label.getStyleClass().add("title-3");
        return label;
    }
}
