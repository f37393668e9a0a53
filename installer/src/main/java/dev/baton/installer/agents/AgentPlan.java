package dev.baton.installer.agents;

import dev.baton.installer.config.JsonEdits;
import dev.baton.installer.config.TextConfigFile;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What an install or an uninstall gathers from the agents before anything is written, where the two agree: where it
 * runs, the JSON files to edit and the text files to edit.
 */
public abstract sealed class AgentPlan permits InstallPlan, UninstallPlan {

    private final InstallLayout layout;
    private final Target target;
    private final JsonEdits json = new JsonEdits();
    private final List<TextConfigFile> texts = new ArrayList<>();

    AgentPlan(InstallLayout layout, Target target) {
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

    /** The JSON files to change, each edited by every step that touches it. */
    public JsonEdits json() {
        return json;
    }

    public void addText(TextConfigFile text) {
        texts.add(text);
    }

    public List<TextConfigFile> texts() {
        return List.copyOf(texts);
    }
}
