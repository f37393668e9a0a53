package dev.baton.installer.agents;

import dev.baton.installer.config.FileStep;
import dev.baton.installer.config.PlannedEdit;
import dev.baton.installer.layout.InstallLayout;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an uninstall is to change, gathered from the agents before anything is written: removals from JSON files,
 * files of Baton's to delete, and removals from text files.
 */
public final class UninstallPlan extends AgentPlan {

    /** Deletes a file Baton wrote whole; empty when there was none. */
    public interface Deletion {
        Optional<FileStep> delete(Path file, boolean dryRun) throws IOException;
    }

    /** A file Baton wrote whole and how it goes. */
    public record OwnedFile(Path file, Deletion deletion) {
    }

    private final List<PlannedEdit> deletions = new ArrayList<>();
    private final List<OwnedFile> ownedFiles = new ArrayList<>();

    public UninstallPlan(InstallLayout layout, Target target) {
        super(layout, target);
    }

    /** A JSON file of Baton's own, deleted after the other JSON edits. */
    public void addDeletion(PlannedEdit deletion) {
        deletions.add(deletion);
    }

    public void addOwnedFile(OwnedFile file) {
        ownedFiles.add(file);
    }

    public List<PlannedEdit> deletions() {
        return List.copyOf(deletions);
    }

    public List<OwnedFile> ownedFiles() {
        return List.copyOf(ownedFiles);
    }
}
