package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** The file a single-file edit tool names in its arguments, under whichever key its agent uses. */
final class EditedFiles {

    /** Claude Code: file_path (notebook_path for NotebookEdit); Copilot CLI: path; Gemini CLI: file_path. */
    private static final List<String> KEYS = List.of("file_path", "notebook_path", "path", "filePath");

    private EditedFiles() {
    }

    static List<String> in(JsonNode toolInput) {
        List<String> files = new ArrayList<>();
        if (toolInput == null || !toolInput.isObject()) {
            return files;
        }
        for (String key : KEYS) {
            String value = HookPayload.textOf(toolInput, key);
            if (value != null) {
                files.add(value);
                return files;
            }
        }
        return files;
    }
}
