package dev.baton.installer.agents;

import dev.baton.installer.config.FileStep;
import dev.baton.installer.config.JsonEdits;
import dev.baton.installer.config.PlannedEdit;
import dev.baton.installer.config.TextConfigFile;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.Scope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an uninstall is to change, gathered from the agents before anything is written: removals from JSON files,
 * files of Baton's to delete, and removals from text files.
 */
public final class UninstallPlan {

    /** Deletes a file Baton wrote whole; empty when there was none. */
    public interface Deletion {
        Optional<FileStep> delete(Path file, boolean dryRun) throws IOException;
    }

    /** A file Baton wrote whole and how it goes. */
    public record OwnedFile(Path file, Deletion deletion) {
    }

    private final InstallLayout layout;
    private final Target target;
    private final JsonEdits json = new JsonEdits();
    private final List<PlannedEdit> deletions = new ArrayList<>();
    private final List<OwnedFile> ownedFiles = new ArrayList<>();
    private final List<TextConfigFile> texts = new ArrayList<>();

    public UninstallPlan(InstallLayout layout, Target target) {
        this.layout = layout;
        this.target = target;
    }

    public InstallLayout layout() {
        return layout;
    }

    public Scope scope() {
        return target.scope();
    }

    public Path project() {
        return target.project();
    }

    /** The JSON files to take Baton's entries out of. */
    public JsonEdits json() {
        return json;
    }

    /** A JSON file of Baton's own, deleted after the other JSON edits. */
    public void addDeletion(PlannedEdit deletion) {
        deletions.add(deletion);
    }

    public void addOwnedFile(OwnedFile file) {
        ownedFiles.add(file);
    }

    public void addText(TextConfigFile text) {
        texts.add(text);
    }

    public List<PlannedEdit> deletions() {
        return List.copyOf(deletions);
    }

    public List<OwnedFile> ownedFiles() {
        return List.copyOf(ownedFiles);
    }

    public List<TextConfigFile> texts() {
        return List.copyOf(texts);
    }
}
