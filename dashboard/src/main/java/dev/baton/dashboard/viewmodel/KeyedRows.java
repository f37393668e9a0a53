package dev.baton.dashboard.viewmodel;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * A table's rows kept in step with freshly computed rows by key: unchanged rows are left alone, changed
 * ones replaced in place, so a live update does not reset scrolling, sorting or the selection.
 */
public final class KeyedRows<K, R> {

    private final Function<R, K> key;
    private final ObservableList<R> rows = FXCollections.observableArrayList();

    public KeyedRows(Function<R, K> key) {
        this.key = key;
    }

    public ObservableList<R> rows() {
        return rows;
    }

    /** Makes the rows equal to {@code fresh} (as a set keyed by {@code key}); new rows go at the end. */
    public void sync(List<R> fresh) {
        Map<K, R> wanted = new HashMap<>();
        fresh.forEach(row -> wanted.put(key.apply(row), row));
        rows.removeIf(row -> !wanted.containsKey(key.apply(row)));
        Set<K> present = new HashSet<>();
        for (int i = 0; i < rows.size(); i++) {
            K k = key.apply(rows.get(i));
            present.add(k);
            R replacement = wanted.get(k);
            if (!replacement.equals(rows.get(i))) {
                rows.set(i, replacement);
            }
        }
        List<R> added = fresh.stream().filter(row -> !present.contains(key.apply(row))).toList();
        if (!added.isEmpty()) {
            rows.addAll(added);
        }
    }

    public R find(K k) {
        return rows.stream().filter(row -> key.apply(row).equals(k)).findFirst().orElse(null);
    }
}
