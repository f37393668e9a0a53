package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.JsonSyntax;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.config.JsonTextEdit;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class JsonTextEditTest extends MachineFixture {

    private static String edit(String text, java.util.function.Consumer<ObjectNode> change) throws Exception {
        return edit(text, JsonSyntax.PLAIN, change);
    }

    private static String edit(String text, JsonSyntax syntax, java.util.function.Consumer<ObjectNode> change)
            throws Exception {
        ObjectNode before = JsonText.parseObject(text, syntax);
        ObjectNode after = before.deepCopy();
        change.accept(after);
        String edited = JsonTextEdit.apply(text, before, after, syntax);
        assertThat(JsonText.parseObject(edited, syntax)).isEqualTo(after);
        return edited;
    }

    @Test
    void membersGoIntoAnObjectOfCommentsAheadOfThemAndComeOutLeavingTheSameBytes() throws Exception {
        String text = "{\n  // \"theme\": \"GitHub\",\n  /* \"vimMode\": true */\n}\n";

        String filled = edit(text, JsonSyntax.COMMENTS, tree -> tree.putObject("mcpServers").putObject("baton").put("command", "x"));

        assertThat(filled).isEqualTo("{\n  \"mcpServers\": {\n    \"baton\": {\n      \"command\": \"x\"\n    }\n  }"
                + "\n  // \"theme\": \"GitHub\",\n  /* \"vimMode\": true */\n}\n");
        assertThat(edit(filled, JsonSyntax.COMMENTS, tree -> tree.remove("mcpServers"))).isEqualTo(text);
    }

    @Test
    void removingAMemberKeepsTheCommentAboutTheNextOne() throws Exception {
        String text = "{\n  \"hooks\": {},\n  // the model for every session\n  \"model\": \"gemini-2.5-pro\" // pinned\n}\n";

        assertThat(edit(text, JsonSyntax.COMMENTS, tree -> tree.remove("hooks")))
                .isEqualTo("{\n  // the model for every session\n  \"model\": \"gemini-2.5-pro\" // pinned\n}\n");
    }

    @Test
    void aMemberAddedAfterALineCommentLeavesTheCommentAtTheEndOfItsLine() throws Exception {
        String text = "{\n  \"model\": \"gemini-2.5-pro\" // pinned\n}\n";

        String added = edit(text, JsonSyntax.COMMENTS, tree -> tree.put("theme", "GitHub"));

        assertThat(added).isEqualTo("{\n  \"model\": \"gemini-2.5-pro\",\n  \"theme\": \"GitHub\" // pinned\n}\n");
        assertThat(edit(added, JsonSyntax.COMMENTS, tree -> tree.remove("theme"))).isEqualTo(text);
    }

    @Test
    void trailingCommasStayWhereTheFileHadThem() throws Exception {
        String text = "{\n  \"mcpServers\": {\n    \"github\": {\"command\": \"gh\"},\n  },\n}\n";

        String added = edit(text, JsonSyntax.COMMENTS_AND_TRAILING_COMMAS,
                tree -> ((ObjectNode) tree.get("mcpServers")).putObject("baton").put("command", "x"));

        assertThat(added).isEqualTo("{\n  \"mcpServers\": {\n    \"github\": {\"command\": \"gh\"},\n"
                + "    \"baton\": {\n      \"command\": \"x\"\n    },\n  },\n}\n");
        assertThat(edit(added, JsonSyntax.COMMENTS_AND_TRAILING_COMMAS,
                tree -> ((ObjectNode) tree.get("mcpServers")).remove("baton"))).isEqualTo(text);
        assertThat(edit(text, JsonSyntax.COMMENTS_AND_TRAILING_COMMAS, tree -> tree.remove("mcpServers")))
                .isEqualTo("{}\n");
    }

    @Test
    void theIndentationStepComesFromTheMembersNotFromAHeaderComment() throws Exception {
        String text = "/*\n * Gemini CLI settings\n */\n{\n    \"model\": \"gemini-2.5-pro\"\n}\n";

        assertThat(edit(text, JsonSyntax.COMMENTS, tree -> tree.putObject("hooks").put("on", true)))
                .isEqualTo("/*\n * Gemini CLI settings\n */\n{\n    \"model\": \"gemini-2.5-pro\",\n"
                        + "    \"hooks\": {\n        \"on\": true\n    }\n}\n");
    }

    @Test
    void anAddedMemberTakesTheFilesIndentationAndNothingElseMoves() throws Exception {
        String text = "{\n    \"name\": \"caf\\u00e9\",\n    \"n\": 1.50\n}";

        String edited = edit(text, tree -> tree.putObject("hooks").putArray("Stop").add("x"));

        assertThat(edited).isEqualTo("{\n    \"name\": \"caf\\u00e9\",\n    \"n\": 1.50,\n    \"hooks\": {\n"
                + "        \"Stop\": [\n            \"x\"\n        ]\n    }\n}");
    }

    @Test
    void removingMembersAndElementsTakesOutOnlyTheirText() throws Exception {
        String text = "{\n\t\"a\": [1, 2, 3],\n\t\"b\": \"caf\\u00e9\",\n\t\"c\": {\"x\": 1, \"y\": 2}\n}\n";

        assertThat(edit(text, tree -> tree.remove("b"))).isEqualTo("{\n\t\"a\": [1, 2, 3],\n\t\"c\": {\"x\": 1, \"y\": 2}\n}\n");
        assertThat(edit(text, tree -> tree.remove("c"))).isEqualTo("{\n\t\"a\": [1, 2, 3],\n\t\"b\": \"caf\\u00e9\"\n}\n");
        assertThat(edit(text, tree -> ((ObjectNode) tree.get("c")).remove("x")))
                .isEqualTo("{\n\t\"a\": [1, 2, 3],\n\t\"b\": \"caf\\u00e9\",\n\t\"c\": {\"y\": 2}\n}\n");
        assertThat(edit(text, tree -> ((com.fasterxml.jackson.databind.node.ArrayNode) tree.get("a")).remove(2)))
                .isEqualTo("{\n\t\"a\": [1, 2],\n\t\"b\": \"caf\\u00e9\",\n\t\"c\": {\"x\": 1, \"y\": 2}\n}\n");
        assertThat(edit(text, tree -> ((com.fasterxml.jackson.databind.node.ArrayNode) tree.get("a")).remove(0)))
                .isEqualTo("{\n\t\"a\": [2, 3],\n\t\"b\": \"caf\\u00e9\",\n\t\"c\": {\"x\": 1, \"y\": 2}\n}\n");
    }

    @Test
    void installAndUninstallKeepAHandFormattedSettingsFilesBytes() throws Exception {
        String original = "{\n    \"model\": \"opus\",\n    \"greeting\": \"caf\\u00e9\",\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n"
                + "    \"hooks\": {\n        \"Notification\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send hi\"}]}]\n    }\n}";
        Path settings = write(machine.userSettings(), original);

        machine.install(Scope.USER, Agents.CLAUDE);

        String installed = read(settings);
        assertThat(installed).startsWith("{\n    \"model\": \"opus\",\n    \"greeting\": \"caf\\u00e9\",\n"
                + "    \"permissions\": {\"allow\": [\"Bash(ls)\", \"mcp__baton__*\"]},\n"
                + "    \"hooks\": {\n        \"Notification\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send hi\"}]}],\n"
                + "        \"PreToolUse\": [\n            {\n                \"matcher\": ");
        assertThat(installed).endsWith("\n    }\n}");
        assertThat(machine.out()).contains("original saved as settings.json.baton-backup");

        // The user changes something of their own, so the backup no longer matches and cannot simply come back.
        write(settings, installed.replace("\"opus\"", "\"sonnet\""));
        machine.uninstall(Scope.USER, Agents.CLAUDE);

        assertThat(read(settings)).isEqualTo(original.replace("\"opus\"", "\"sonnet\""));
        assertThat(machine.out()).contains("backup settings.json.baton-backup removed, no longer needed");
        assertThat(settings.resolveSibling("settings.json.baton-backup")).doesNotExist();
    }
}
