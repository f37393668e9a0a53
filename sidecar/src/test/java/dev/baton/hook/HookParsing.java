package dev.baton.hook;

import dev.baton.agent.AgentDialects;
import java.util.List;

/**
 * The hook parsers as the fuzz targets in {@code dev.baton.fuzz} drive them: the same steps the hook
 * endpoint takes before it touches any state (parse, detect the dialect, read the call, check the cwd),
 * without making the package's types public.
 */
public final class HookParsing {

    /** What the endpoint would act on, in plain types. */
    public record Parsed(String agent, String event, String sessionId, String cwd, String tool, boolean editTool,
                         List<String> files) {
    }

    private HookParsing() {
    }

    /** @throws dev.baton.state.BatonException when the endpoint would refuse the payload */
    public static Parsed read(String agentArg, String eventArg, byte[] body) {
        HookPayload payload = HookPayload.parse(body);
        HookCall call = AgentDialects.ALL.detect(agentArg, payload).read(payload, eventArg);
        return new Parsed(call.agent().wireName(), call.event().name(), call.sessionId(),
                HookSessions.absoluteOrNull(call.cwd()), call.toolName(), call.editTool(), call.files());
    }

    public static List<String> agents() {
        return List.copyOf(AgentDialects.ALL.names());
    }

    public static boolean looksLikePatch(String text) {
        return PatchPaths.looksLikePatch(text);
    }

    public static List<String> patchPaths(String patch) {
        return PatchPaths.of(patch);
    }
}
