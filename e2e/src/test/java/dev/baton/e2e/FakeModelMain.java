package dev.baton.e2e;

import dev.baton.agent.claude.AnthropicWire;
import dev.baton.agent.codex.ResponsesWire;
import dev.baton.agent.gemini.GeminiWire;
import java.util.List;
import java.util.Map;

/**
 * Runs a fake model by hand, for watching a CLI: prints its URL, serves a Write then "done" on every agent's wire,
 * logs requests.
 */
final class FakeModelMain {
    public static void main(String[] args) throws Exception {
        String tool = args.length > 0 ? args[0] : "Write";
        FakeModel model = new FakeModel(List.of(Step.call(tool, Map.of("file_path", args.length > 1 ? args[1] : "/tmp/x.txt",
                "content", "hello\n")), Step.say("done")));
        List.of(new AnthropicWire(), new ChatCompletionsWire(), new ResponsesWire(), new GeminiWire())
                .forEach(model::speaks);
        System.out.println(model.url());
        int seen = 0;
        while (true) {
            var requests = model.requests();
            for (; seen < requests.size(); seen++) {
                var r = requests.get(seen);
                System.out.println(">>> " + r.method() + " " + r.path() + "\n" + r.body());
            }
            Thread.sleep(200);
        }
    }
}
