package dev.baton.installer.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.layout.InstallerException;
import java.io.IOException;
import java.util.List;

/**
 * A change to one configuration file, computed before anything is written so that one unreadable file
 * stops the whole command with every file untouched.
 *
 * @param after   the new content, or null when the file is to be deleted
 * @param changes one short line per entry added ({@code +}), replaced ({@code ~}) or removed ({@code -})
 */
public record PlannedEdit(JsonConfigFile file, JsonConfigFile.Snapshot before, ObjectNode after, List<String> changes) {

    public static PlannedEdit deletion(JsonConfigFile file, JsonConfigFile.Snapshot before, List<String> changes) {
        return new PlannedEdit(file, before, null, changes);
    }

    public boolean isNoOp() {
        return after == null ? !before.exists() : before.exists() && before.tree().equals(after);
    }

    public JsonConfigFile.Outcome apply(boolean saveOriginal) throws IOException, InstallerException {
        return after == null ? file.delete(before) : file.write(before, after, saveOriginal);
    }

    /** The verb a dry run reports for this edit. */
    public String intendedVerb() {
        if (isNoOp()) {
            return "unchanged";
        }
        if (after == null) {
            return "would be deleted";
        }
        return before.exists() ? "would be updated" : "would be created";
    }

    public String summary() {
        return String.join(", ", changes);
    }
}
