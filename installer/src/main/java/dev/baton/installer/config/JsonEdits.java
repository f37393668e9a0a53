package dev.baton.installer.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.layout.InstallerException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The JSON files a command changes, each read once and edited by every step that touches it, in first-touch order. */
public final class JsonEdits {

    private final Map<Path, PlannedEdit> edits = new LinkedHashMap<>();

    /** Plans a change to the file's tree; a file that does not exist starts as an empty object. */
    public void plan(JsonConfigFile file, Function<ObjectNode, List<String>> change) throws InstallerException {
        PlannedEdit existing = edits.get(file.path());
        JsonConfigFile target = existing != null && existing.file().isSecret() ? existing.file() : file;
        JsonConfigFile.Snapshot before = existing != null ? existing.before() : file.read();
        ObjectNode after = existing != null ? existing.after() : before.editableCopy();
        List<String> changes = new ArrayList<>(existing != null ? existing.changes() : List.of());
        changes.addAll(ConfigEdits.guardShape(file, () -> change.apply(after)));
        edits.put(file.path(), new PlannedEdit(target, before, after, changes));
    }

    /** Plans a removal; a file that does not exist is left alone. */
    public void planRemoval(JsonConfigFile file, Function<ObjectNode, List<String>> removal) throws InstallerException {
        if (edits.containsKey(file.path()) || file.read().exists()) {
            plan(file, removal);
        }
    }

    public void add(PlannedEdit edit) {
        edits.put(edit.file().path(), edit);
    }

    public ObjectNode after(Path file) {
        PlannedEdit edit = edits.get(file);
        return edit == null ? JsonText.MAPPER.createObjectNode() : edit.after();
    }

    public List<PlannedEdit> edits() {
        return new ArrayList<>(edits.values());
    }

    /**
     * The removals as they are to be applied: a file Baton created and this left empty, with no original to go
     * back to, is deleted.
     */
    public List<PlannedEdit> removals() {
        List<PlannedEdit> planned = new ArrayList<>();
        for (PlannedEdit edit : edits.values()) {
            boolean createdByBaton = !edit.file().hasBackup();
            if (!edit.changes().isEmpty() && edit.after() != null && edit.after().isEmpty() && createdByBaton) {
                planned.add(PlannedEdit.deletion(edit.file(), edit.before(), edit.changes()));
            } else {
                planned.add(edit);
            }
        }
        return planned;
    }
}
