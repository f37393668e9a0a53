package dev.baton.installer.agents;

import dev.baton.installer.config.FileStep;
import dev.baton.installer.config.JsonEdits;
import dev.baton.installer.config.TextConfigFile;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.Scope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What an install is to change, gathered from the agents before anything is written: edits of JSON files, files Baton
 * writes whole, edits of text files, and what is skipped and why.
 */
public final class InstallPlan {

    /** A file Baton writes whole; planning has read and checked what is there now. */
    public interface WholeFile {
        FileStep write(boolean dryRun) throws IOException;
    }

    private final InstallLayout layout;
    private final Target target;
    private final boolean registerMcp;
    private final boolean allowMcpTools;
    private final JsonEdits json = new JsonEdits();
    private final List<WholeFile> wholeFiles = new ArrayList<>();
    private final List<TextConfigFile> texts = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();

    /**
     * @param registerMcp   whether the agents' MCP entries are added
     * @param allowMcpTools whether an agent that asks before each MCP tool is told to allow Baton's
     */
    public InstallPlan(InstallLayout layout, Target target, boolean registerMcp, boolean allowMcpTools) {
        this.layout = layout;
        this.target = target;
        this.registerMcp = registerMcp;
        this.allowMcpTools = allowMcpTools;
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

    public boolean registerMcp() {
        return registerMcp;
    }

    public boolean allowMcpTools() {
        return allowMcpTools;
    }

    /** The JSON files to change, each edited by every step that touches it. */
    public JsonEdits json() {
        return json;
    }

    public void addWholeFile(WholeFile file) {
        wholeFiles.add(file);
    }

    public void addText(TextConfigFile text) {
        texts.add(text);
    }

    /** Something the install leaves out, said after what it did. */
    public void skip(String what) {
        skipped.add("  skipped           " + what);
    }

    public List<WholeFile> wholeFiles() {
        return List.copyOf(wholeFiles);
    }

    public List<TextConfigFile> texts() {
        return List.copyOf(texts);
    }

    public List<String> skipped() {
        return List.copyOf(skipped);
    }
}
