package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.http.Json;
import dev.baton.lock.AcquireRequest;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The file-lock verbs of the CLI: acquire, release, check, locks, cleanup-stale, history. */
final class LockCommands {

    private LockCommands() {
    }

    static String cwd() {
        return System.getProperty("user.dir");
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Command(name = "acquire", description = "Lock files for this session (exit 1 if any stays held by another).")
    static final class Acquire extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Parameters(arity = "1..*", paramLabel = "FILE") List<String> files;
        @Option(names = "--wait", paramLabel = "SECONDS", description = "Wait up to SECONDS for a held file (0 = try once).")
        int waitSeconds;
        @Mixin AgentOptions agent;

        @Override
        public Integer call() {
            if (waitSeconds < 0 || waitSeconds > AcquireRequest.MAX_WAIT_SECONDS) {
                throw new CliException("--wait must be between 0 and " + AcquireRequest.MAX_WAIT_SECONDS + " seconds, was " + waitSeconds);
            }
            AgentCaller caller = agent.resolve(client());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("session_id", caller.sessionId());
            body.put("files", files);
            body.put("wait_seconds", waitSeconds);
            body.put("cwd", cwd());
            JsonNode reply = caller.client().post("/v1/locks/acquire", body, Duration.ofSeconds(waitSeconds + 30L));
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> {
                for (JsonNode result : reply.path("results")) {
                    String file = result.path("file").asText();
                    if (result.path("acquired").asBoolean()) {
                        out.println((result.path("reentrant").asBoolean() ? "already held: " : "acquired: ") + Output.relative(file)
                                + missingDirectory(file));
                        for (JsonNode other : result.path("also_changed_in")) {
                            out.println("  also being changed in " + other.path("worktree").asText() + branch(other)
                                    + " by " + other.path("holder").path("agent").asText("?") + " session "
                                    + other.path("holder").path("session").asText() + ": the two changes meet at the merge");
                        }
                    } else if (result.hasNonNull("copy_of")) {
                        out.println("held: " + Output.heldCopy(file, result.path("copy_of")));
                    } else if (result.hasNonNull("holder")) {
                        out.println("held: " + Output.held(file, result.path("holder")));
                    } else {
                        out.println("not taken: " + Output.relative(file));
                    }
                }
            });
            return reply.path("all_acquired").asBoolean() ? 0 : 1;
        }
    }

    private static String branch(JsonNode copy) {
        return copy.path("branch").isTextual() ? " on branch " + copy.path("branch").asText() : "";
    }

    /** A lock on a file in a directory that does not exist is legal (it may be created next) but often a typo. */
    static String missingDirectory(String file) {
        Path parent = Path.of(file).getParent();
        return parent == null || Files.isDirectory(parent) ? ""
                : " (note: its directory " + Output.relative(parent.toString()) + " does not exist yet; check the path)";
    }

    @Command(name = "release", description = "Release files this session holds (releasing what you do not hold is fine).")
    static final class Release extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Parameters(arity = "0..*", paramLabel = "FILE") List<String> files;
        @Option(names = "--all", description = "Release everything this session holds.") boolean all;
        @Mixin AgentOptions agent;

        @Override
        public Integer call() {
            boolean hasFiles = files != null && !files.isEmpty();
            if (all == hasFiles) {
                throw new CliException(all ? "give either FILE… or --all, not both" : "name the files to release, or --all");
            }
            AgentCaller caller = agent.resolve(client());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("session_id", caller.sessionId());
            if (all) {
                body.put("all", true);
            } else {
                body.put("files", files);
                body.put("cwd", cwd());
            }
            JsonNode reply = caller.client().post("/v1/locks/release", body, Duration.ofSeconds(10));
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> {
                reply.path("released").forEach(f -> out.println("released: " + Output.relative(f.asText())));
                reply.path("not_held").forEach(f -> out.println("was not held by this session: " + Output.relative(f.asText())));
                if (reply.path("released").isEmpty() && reply.path("not_held").isEmpty()) {
                    out.println("this session held nothing");
                }
            });
            return 0;
        }
    }

    @Command(name = "check", description = "Show who holds FILE (exit 1 if another session holds it).")
    static final class Check extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Parameters(paramLabel = "FILE") String file;
        @Option(names = "--session", description = "Treat this session id as the caller.") String session;

        @Override
        public Integer call() {
            SidecarClient client = client();
            JsonNode reply = client.get("/v1/locks/check?file=" + encode(file) + "&cwd=" + encode(cwd()));
            PrintWriter out = spec.commandLine().getOut();
            String canonical = reply.path("file").asText();
            boolean held = reply.path("held").asBoolean();
            String holderId = reply.path("lock").path("holder").path("session").asText(null);
            String me = held ? CallerSession.identify(client, session) : null;
            boolean mine = held && holderId != null && holderId.equals(me);
            Output.print(out, reply, json, () -> {
                if (!held) {
                    out.println(Output.relative(canonical) + " is free");
                } else if (mine) {
                    out.println(Output.relative(canonical) + " is held by this session");
                } else {
                    out.println(Output.held(canonical, reply.path("lock").path("holder")));
                }
            });
            return held && !mine ? 1 : 0;
        }
    }

    @Command(name = "locks", description = {"List held locks: files with their holders, then named locks"
            + " (`baton exclusive`) with their holder's pid, host, since and command."})
    static final class Locks extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Option(names = "--session", description = "Only this session's file locks.") String session;
        @Option(names = "--named", description = "Only the named locks.") boolean named;

        @Override
        public Integer call() {
            if (named && session != null) {
                throw new CliException("named locks belong to processes, not sessions; give --named or --session, not both");
            }
            SidecarClient client = client();
            ObjectNode reply = Json.mapper().createObjectNode();
            if (!named) {
                reply.setAll((ObjectNode) client.get("/v1/locks?changes=true"
                        + (session == null ? "" : "&session_id=" + encode(session))));
            }
            if (session == null) {
                reply.set("named_locks", client.get("/v1/named-locks").path("named_locks"));
            }
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> {
                if (!named) {
                    printFileLocks(out, reply.path("locks"));
                }
                if (session == null) {
                    printNamedLocks(out, reply.path("named_locks"), named);
                }
            });
            return 0;
        }

        static void printFileLocks(PrintWriter out, JsonNode locks) {
            if (locks.isEmpty()) {
                out.println("no file locks held");
                return;
            }
            // A listing that asked git says what each file carries; the live view (watch) does not ask.
            boolean asked = false;
            for (JsonNode lock : locks) {
                asked |= lock.has("uncommitted");
            }
            List<String> header = new ArrayList<>(List.of("FILE", "AGENT", "SESSION", "PID", "ALIVE", "TAKEN", "LAST EDIT",
                    "BRANCH"));
            if (asked) {
                header.add("CHANGES");
            }
            Table table = new Table(header.toArray(String[]::new));
            for (JsonNode lock : locks) {
                JsonNode holder = lock.path("holder");
                List<Object> cells = new ArrayList<>(List.of(
                        Output.relative(lock.path("file").asText()) + (lock.path("edit_in_flight").asBoolean() ? " [editing]" : ""),
                        holder.path("agent").asText("?"), holder.path("session").asText(), holder.path("pid").asText("-"),
                        holder.path("alive").asText(), Output.ago(lock.path("since")), Output.ago(lock.path("last_edit")),
                        lock.path("copy").path("branch").asText("-")));
                if (asked) {
                    cells.add(changes(lock.path("uncommitted")));
                }
                table.row(cells.toArray());
            }
            table.print(out);
        }

        /** Whether the file carries uncommitted work: what its release would hand on. */
        private static String changes(JsonNode uncommitted) {
            return uncommitted.isBoolean() ? uncommitted.asBoolean() ? "uncommitted" : "none" : "?";
        }

        private static void printNamedLocks(PrintWriter out, JsonNode locks, boolean always) {
            if (locks.isEmpty()) {
                if (always) {
                    out.println("no named locks held");
                }
                return;
            }
            out.println("named locks:");
            for (JsonNode lock : locks) {
                out.printf("%s  pid %s on %s (%s) since %s, running: %s%n", lock.path("name").asText(),
                        lock.path("pid").asText(), lock.path("host").asText("?"), lock.path("alive").asText(),
                        lock.path("since").asText(), lock.path("purpose").asText("?"));
            }
        }
    }

    @Command(name = "overlaps", description = {"List the files being changed in several copies of their repository at"
            + " once (worktrees, clones, on different branches): the merge conflicts ahead, with who changes each where."})
    static final class Overlaps extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            JsonNode reply = client().get("/v1/overlaps");
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> {
                if (reply.path("overlaps").isEmpty()) {
                    out.println("no file is being changed in more than one copy of its repository");
                }
                for (JsonNode file : reply.path("overlaps")) {
                    out.printf("%s  (%s)%n", file.path("path").asText(), file.path("repository").asText());
                    for (JsonNode copy : file.path("copies")) {
                        JsonNode holder = copy.path("holder");
                        out.printf("  %s  %s  %s %s%n", copy.path("worktree").asText(),
                                copy.path("branch").isNull() ? "(no commit yet)" : "branch " + copy.path("branch").asText(),
                                holder.path("agent").asText("?"), holder.path("session").asText());
                    }
                }
            });
            return 0;
        }
    }

    @Command(name = "cleanup-stale", description = "Free the locks of holders whose process exited or whose heartbeat expired.")
    static final class CleanupStale extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            JsonNode reply = client().post("/v1/cleanup-stale", Map.of(), Duration.ofSeconds(30));
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> {
                if (reply.path("freed").isEmpty() && reply.path("named_locks").isEmpty()) {
                    out.println("nothing stale");
                }
                for (JsonNode freed : reply.path("freed")) {
                    out.printf("session %s (%s): freed %d file(s)%n", freed.path("session").asText(),
                            freed.path("reason").asText(), freed.path("files").size());
                    freed.path("files").forEach(f -> out.println("  " + Output.relative(f.asText())));
                }
                reply.path("named_locks").forEach(name -> out.println("named lock " + name.asText() + " (holder-exited)"));
            });
            return 0;
        }
    }

    @Command(name = "history", description = "The audit trail of one file: who took it, released it, was denied it; the versions kept of it and restored.")
    static final class History extends SidecarCommands implements Callable<Integer> {
        /** Entries asked for per request; the sidecar pages a trail, so --limit has no ceiling. */
        private static final int PAGE = 1000;

        @Spec CommandSpec spec;
        @Parameters(paramLabel = "FILE") String file;
        @Option(names = "--limit", defaultValue = "50", description = "Show the newest N entries (default 50).")
        int limit;

        @Override
        public Integer call() {
            if (limit < 1) {
                throw new CliException("--limit must be 1 or more");
            }
            SidecarClient client = client();
            ArrayNode entries = JsonNodeFactory.instance.arrayNode();
            String target = null;
            String before = "";
            while (entries.size() < limit) {
                JsonNode page = client.get("/v1/history?file=" + encode(file) + "&cwd=" + encode(cwd()) + "&limit="
                        + Math.min(PAGE, limit - entries.size()) + before);
                target = page.path("file").asText();
                entries.addAll((ArrayNode) page.path("entries"));
                if (!page.hasNonNull("next_before")) {
                    break;
                }
                before = "&before=" + page.path("next_before").asLong();
            }
            ObjectNode reply = JsonNodeFactory.instance.objectNode();
            reply.put("file", target);
            reply.set("entries", entries);
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> {
                if (reply.path("entries").isEmpty()) {
                    out.println("no history for " + Output.relative(reply.path("file").asText()));
                }
                for (JsonNode entry : reply.path("entries")) {
                    out.printf("%s  %-8s %s%s%s%n", entry.path("at").asText(), entry.path("action").asText(),
                            entry.path("session_id").asText("-"),
                            entry.hasNonNull("reason") ? " (" + entry.path("reason").asText() + ")" : "",
                            entry.hasNonNull("actor") ? " by " + entry.path("actor").asText() : "");
                }
            });
            return 0;
        }
    }
}
