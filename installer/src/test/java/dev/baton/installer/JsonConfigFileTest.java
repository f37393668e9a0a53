package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.JsonConfigFile;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.layout.InstallerException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonConfigFileTest {

    @TempDir
    Path temp;

    @Test
    void renderingMatchesTheTwoSpaceLayoutAgentsWrite() throws Exception {
        String text = """
                {
                  "empty": {},
                  "none": [],
                  "nested": {
                    "list": [
                      1,
                      -2.50,
                      true,
                      null,
                      "quote \\" backslash \\\\ tab \\t"
                    ]
                  },
                  "unicode": "naïve ☕ 日本"
                }
                """;

        assertThat(JsonText.render(JsonText.parseObject(text))).isEqualTo(text);
    }

    @Test
    void trailingTextAfterTheObjectIsRejected() {
        assertThatThrownBy(() -> JsonText.parseObject("{\"a\": 1}\n{\"b\": 2}\n"))
                .isInstanceOf(JsonText.InvalidJson.class);
    }

    @Test
    void anEmptyFileIsRejectedWithAPlainReason() {
        assertThatThrownBy(() -> JsonText.parseObject("  \n"))
                .hasMessage("the file is empty, expected a JSON object");
    }

    @Test
    void aFileChangedBetweenReadAndWriteIsNotOverwritten() throws Exception {
        Path file = write(temp.resolve("claude.json"), "{\n  \"numStartups\": 1\n}\n");
        JsonConfigFile config = Agents.CLAUDE.secretFile(file);
        JsonConfigFile.Snapshot before = config.read();
        write(file, "{\n  \"numStartups\": 2\n}\n");
        ObjectNode after = before.editableCopy().put("theme", "dark");

        assertThatThrownBy(() -> config.write(before, after))
                .isInstanceOf(InstallerException.class)
                .hasMessageContaining(file + " changed while Baton was editing it");
        assertThat(read(file)).isEqualTo("{\n  \"numStartups\": 2\n}\n");
    }

    @Test
    void theBackupIsWrittenOnceSoThePristineOriginalSurvives() throws Exception {
        Path file = write(temp.resolve("settings.json"), "{\"model\": \"opus\"}");
        JsonConfigFile config = Agents.CLAUDE.sharedFile(file);

        config.write(config.read(), JsonText.parseObject("{\"model\": \"sonnet\"}"));
        config.write(config.read(), JsonText.parseObject("{\"model\": \"haiku\"}"));

        assertThat(read(config.backup().path())).isEqualTo("{\"model\": \"opus\"}");
        assertThat(read(file)).isEqualTo("{\"model\": \"haiku\"}"); // only the value's text changed
    }
}
