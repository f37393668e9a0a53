package dev.baton.installer.config;

import java.nio.file.Path;

/** One line of an install or uninstall report: what happened to which file, and a short note. */
public record FileStep(String verb, Path path, String note) {

    @Override
    public String toString() {
        String line = String.format("  %-17s %s", verb, path);
        return note.isEmpty() ? line : line + "  (" + note + ")";
    }
}
