package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.session.AgentKind;
import java.util.List;

/**
 * One agent's hook language: how its payloads name sessions, events, tools and files, and how it wants to be
 * answered. Each agent's package holds its dialects, and the sidecar is given them as one {@link Dialects}. The script
 * passes the agent it was installed for, but the payload decides: Copilot CLI also runs the hooks of {@code
 * .claude/settings.json}, sending its own PascalCase payloads to Claude's hook command, so the dialects are asked in
 * their precedence order and the first that {@linkplain #recognises recognises} a call reads it. Most agents follow
 * the shape Claude Code introduced ({@link ClaudeStyle}); a dialect overrides only where its agent departs from it.
 */
public abstract class Dialect {

    private final AgentKind agent;
    private final String name;
    private final int precedence;

    /**
     * @param name       the word the hook script or plug-in names the agent by ({@code baton-hook AGENT EVENT})
     * @param precedence where the dialect is asked in detection, lowest first: one that recognises a payload by a
     *                   mark of its own goes before one that takes whatever carries the shape it shares
     */
    protected Dialect(AgentKind agent, String name, int precedence) {
        this.agent = agent;
        this.name = name;
        this.precedence = precedence;
    }

    protected final AgentKind agent() {
        return agent;
    }

    public final String name() {
        return name;
    }

    final int precedence() {
        return precedence;
    }

    /** Whether this dialect reads a call the script sent as {@code agentArg} with this payload. */
    protected abstract boolean recognises(String agentArg, HookPayload payload);

    /**
     * Whether the caller is the agent's own process (a plug-in inside it, as OpenCode's) rather than a hook process
     * the agent started; the kernel's view of the connection then names the agent itself.
     */
    protected boolean runsInAgent() {
        return false;
    }

    /**
     * Whether the agent reports the end of each shell command it runs (a PostToolUse for it); where it does not, the
     * wrapper reports the end, so that what the command changed is checked when it ended rather than at the turn's end.
     */
    protected boolean reportsShellCommandEnd() {
        return true;
    }

    /** The agent's names for its events. */
    protected abstract EventNames eventNames();

    /** @param eventArg the event name the hook was registered under, as the script passes it (may be null) */
    protected HookCall read(HookPayload payload, String eventArg) {
        return ClaudeStyle.read(payload, eventArg, agent, eventNames(), this::filesWritten);
    }

    /** The files a call of {@code tool} writes, given its arguments; null when the tool writes none. */
    protected abstract List<String> filesWritten(String tool, JsonNode input);

    /** Whether this agent shows extra context to the model for this event. */
    protected boolean carriesContext(EventKind event) {
        return ClaudeStyle.carriesContext(event);
    }

    /** The answer that refuses a tool call before it runs. */
    protected ObjectNode denial(String reason) {
        return ClaudeStyle.denial(reason);
    }

    /** The answer that shows {@code text} to the model at an event that carries context. */
    protected ObjectNode context(EventKind event, String text) {
        return ClaudeStyle.context(ClaudeStyle.eventName(event), text);
    }

    /**
     * Whether the agent runs a tool call with the arguments its PreToolUse hook answers, without an explicit allow
     * (checked with each real CLI): Copilot CLI's {@code modifiedArgs} and Gemini CLI's {@code tool_input} are applied
     * as they are; Codex CLI applies {@code updatedInput} only beside {@code permissionDecision: allow}, which would
     * skip the user's own prompt, and Claude Code runs its shell commands through Baton's prefix instead.
     */
    protected boolean rewritesArguments() {
        return false;
    }

    /** The answer that has a tool call run with {@code arguments}, where {@link #rewritesArguments()}. */
    protected ObjectNode rewrite(ObjectNode arguments, String context) {
        throw new UnsupportedOperationException(agent.wireName() + " does not take rewritten arguments from a hook");
    }

    /** Every agent reads its answer as one line of JSON on stdout with exit 0, and nothing when there is none. */
    final HookOutput render(HookReply reply, EventKind event) {
        if (reply instanceof HookReply.Deny deny && event == EventKind.PRE_TOOL) {
            return HookOutput.stdout(ClaudeStyle.line(denial(deny.reason())));
        }
        if (reply instanceof HookReply.Rewrite rewrite) {
            if (event == EventKind.PRE_TOOL && rewritesArguments()) {
                return HookOutput.stdout(ClaudeStyle.line(rewrite(rewrite.arguments(), rewrite.context())));
            }
            reply = HookReply.context(rewrite.context());
        }
        if (reply instanceof HookReply.Context context && carriesContext(event)) {
            return HookOutput.stdout(ClaudeStyle.line(context(event, context.text())));
        }
        return HookOutput.NOTHING;
    }
}
