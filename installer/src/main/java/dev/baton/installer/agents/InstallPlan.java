package dev.baton.installer.agents;

import dev.baton.installer.config.FileStep;
import dev.baton.installer.layout.InstallLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What an install is to change, gathered from the agents before anything is written: edits of JSON files, files Baton
 * writes whole, edits of text files, and what is skipped and why.
 */
public final class InstallPlan extends AgentPlan {

    /** A file Baton writes whole; planning has read and checked what is there now. */
    public interface WholeFile {
        FileStep write(boolean dryRun) throws IOException;
    }

    private final boolean registerMcp;
    private final boolean allowMcpTools;
    private final List<WholeFile> wholeFiles = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();

    /**
     * @param registerMcp   whether the agents' MCP entries are added
     * @param allowMcpTools whether an agent that asks before each MCP tool is told to allow Baton's
     */
    public InstallPlan(InstallLayout layout, Target target, boolean registerMcp, boolean allowMcpTools) {
        super(layout, target);
        this.registerMcp = registerMcp;
        this.allowMcpTools = allowMcpTools;
    }

    public boolean registerMcp() {
        return registerMcp;
    }

    public boolean allowMcpTools() {
        return allowMcpTools;
    }

    public void addWholeFile(WholeFile file) {
        wholeFiles.add(file);
    }

    /** Something the install leaves out, said after what it did. */
    public void skip(String what) {
        skipped.add("  skipped           " + what);
    }

    public List<WholeFile> wholeFiles() {
        return List.copyOf(wholeFiles);
    }

    public List<String> skipped() {
        return List.copyOf(skipped);
    }
}
