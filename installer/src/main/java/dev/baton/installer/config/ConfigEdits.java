package dev.baton.installer.config;

import dev.baton.installer.layout.InstallerException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Applies planned configuration edits in order and reports each file's outcome, or only describes them in a dry run. */
public final class ConfigEdits {

    private ConfigEdits() {
    }

    public static void apply(List<PlannedEdit> edits, boolean dryRun, PrintWriter out) throws IOException, InstallerException {
        apply(edits, dryRun, false, out);
    }

    /**
     * @param retireBackups for uninstall: once Baton's entries are out of a file, its backup is no longer needed
     *                      (the file itself is the user's file again) and is deleted, and the output says so
     * @return the files deleted
     */
    public static List<Path> apply(List<PlannedEdit> edits, boolean dryRun, boolean retireBackups, PrintWriter out)
            throws IOException, InstallerException {
        List<Path> deleted = new ArrayList<>();
        for (PlannedEdit edit : edits) {
            if (dryRun) {
                out.println(new FileStep(edit.intendedVerb(), edit.file().path(), edit.isNoOp() ? "" : edit.summary()));
                continue;
            }
            boolean hadBackup = edit.file().hasBackup();
            JsonConfigFile.Outcome outcome = edit.apply(!retireBackups);
            String note = outcome == JsonConfigFile.Outcome.UNCHANGED ? "" : edit.summary();
            if (!hadBackup && edit.file().hasBackup()) {
                note += "; original saved as " + edit.file().backup().name();
            }
            if (outcome == JsonConfigFile.Outcome.RESTORED) {
                note += "; original bytes restored from " + edit.file().backup().name();
            } else if (retireBackups && !edit.changes().isEmpty() && edit.file().hasBackup()) {
                edit.file().backup().delete();
                note += "; backup " + edit.file().backup().name() + " removed, no longer needed";
            }
            out.println(new FileStep(outcome.verb, edit.file().path(), note));
            if (outcome == JsonConfigFile.Outcome.DELETED) {
                deleted.add(edit.file().path());
            }
        }
        return deleted;
    }

    /** Runs a tree edit, turning a wrongly shaped value into a refusal that names the file. */
    public static List<String> guardShape(JsonConfigFile file, Supplier<List<String>> edit) throws InstallerException {
        try {
            return edit.get();
        } catch (ConfigShapeException e) {
            throw new InstallerException("Refusing to edit " + file.path() + ": " + e.getMessage()
                    + ". Fix that value by hand, then run the command again; nothing was changed.");
        }
    }

    public static InstallerException writeFailure(IOException e) {
        String subject = e instanceof FileSystemException fse && fse.getFile() != null ? fse.getFile() : "a file";
        String reason = e instanceof FileSystemException fse && fse.getReason() != null
                ? fse.getReason()
                : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return new InstallerException("Cannot write " + subject + " (" + reason + "). Check its permissions and"
                + " run the command again; files already reported above were written.", e);
    }
}
