package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code baton msg send|inbox|read}: messages between agent sessions. */
@Command(name = "msg", description = "Send and read messages between sessions.",
        subcommands = {MessageCommands.Send.class, MessageCommands.Inbox.class, MessageCommands.Read.class})
final class MessageCommands implements Runnable {

    @Spec CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "send", description = "Send TEXT to session TO (an id or a unique start of one), or to * for everyone.")
    static final class Send extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Mixin AgentOptions agent;
        @Parameters(index = "0", paramLabel = "TO") String to;
        @Parameters(index = "1..*", arity = "1..*", paramLabel = "TEXT") List<String> text;

        @Override
        public Integer call() {
            AgentCaller caller = agent.resolve(client());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("session_id", caller.sessionId());
            body.put("to", to);
            body.put("text", String.join(" ", text));
            JsonNode reply = caller.client().post("/v1/messages", body, Duration.ofSeconds(10));
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> {
                JsonNode message = reply.path("message");
                out.println("message " + message.path("id").asLong() + " sent to "
                        + ("*".equals(message.path("recipient").asText()) ? "everyone (" + reply.path("recipients").asInt()
                        + " session(s))" : "session " + message.path("recipient").asText()));
            });
            return 0;
        }
    }

    @Command(name = "inbox", description = "List messages sent to this session, newest first.")
    static final class Inbox extends SidecarCommands implements Callable<Integer> {
        private static final Pattern RELATIVE = Pattern.compile("(\\d+)\\s*([smhd])");

        @Spec CommandSpec spec;
        @Mixin AgentOptions agent;
        @Option(names = "--unread", description = "Only unread messages.") boolean unread;
        @Option(names = "--from", paramLabel = "SESSION", description = "Only from sessions whose id starts with SESSION.")
        String from;
        @Option(names = "--since", paramLabel = "TIME", description = "Only since TIME: an ISO instant, or an age such as 30m, 2h, 1d.")
        String since;
        @Option(names = "--page", defaultValue = "1", description = "Page number, from 1 (default 1).") int page;
        @Option(names = "--page-size", defaultValue = "20", description = "Messages per page (default 20, at most 200).")
        int pageSize;

        @Option(names = "--supervisor", description = "Every session's messages, newest first, as the supervisor reads them"
                + " (the newest 1,000; --from and --unread filter them).") boolean supervisor;

        @Override
        public Integer call() {
            if (supervisor) {
                return everyMessage();
            }
            AgentCaller caller = agent.resolve(client());
            StringBuilder query = new StringBuilder("/v1/messages?session_id=").append(LockCommands.encode(caller.sessionId()))
                    .append("&page=").append(page).append("&page_size=").append(pageSize);
            if (unread) {
                query.append("&unread=true");
            }
            if (from != null) {
                query.append("&from=").append(LockCommands.encode(from));
            }
            if (since != null) {
                query.append("&since=").append(LockCommands.encode(instant(since).toString()));
            }
            JsonNode reply = caller.client().get(query.toString());
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> {
                for (JsonNode message : reply.path("messages")) {
                    out.printf("#%d  %s  from %s%s%s%s%n", message.path("id").asLong(), message.path("sent_at").asText(),
                            message.hasNonNull("from_agent") ? message.path("from_agent").asText() + " " : "",
                            message.path("from").asText(),
                            message.path("broadcast").asBoolean() ? " (to everyone)" : "",
                            message.hasNonNull("read_at") ? "" : "  [unread]");
                    out.println("    " + message.path("text").asText().replace("\n", "\n    "));
                }
                int total = reply.path("total").asInt();
                if (total == 0) {
                    out.println(unread ? "no unread messages" : "no messages");
                } else {
                    out.printf("page %d of %d (%d message(s); %d unread in the inbox)%s%n", reply.path("page").asInt(),
                            reply.path("pages").asInt(), total, reply.path("unread").asInt(),
                            reply.path("page").asInt() < reply.path("pages").asInt()
                                    ? "; next: baton msg inbox --page " + (reply.path("page").asInt() + 1) : "");
                }
            });
            return 0;
        }

        /** The supervisor's view: every session's messages, with sender, recipient and whether it was read. */
        private int everyMessage() {
            if (agent.session != null || agent.key != null) {
                throw new CliException("--supervisor reads every session's messages; leave out --session and --key");
            }
            Instant after = since == null ? null : instant(since);
            JsonNode reply = SidecarClient.connectAsSupervisor(home()).get("/v1/messages?all=true");
            ArrayNode shown = JsonNodeFactory.instance.arrayNode();
            for (JsonNode message : reply.path("messages")) {
                boolean wanted = (from == null || message.path("from").asText().startsWith(from))
                        && (!unread || message.path("read").isBoolean() && !message.path("read").asBoolean())
                        && (after == null || Instant.parse(message.path("sent_at").asText()).isAfter(after));
                if (wanted) {
                    shown.add(message);
                }
            }
            PrintWriter out = spec.commandLine().getOut();
            ObjectNode filtered = JsonNodeFactory.instance.objectNode().set("messages", shown);
            Output.print(out, filtered, json, () -> {
                for (JsonNode message : shown) {
                    out.printf("#%d  %s  %s -> %s%s%n", message.path("id").asLong(), message.path("sent_at").asText(),
                            message.path("from").asText(), message.path("to").asText(),
                            message.path("read").isBoolean() && !message.path("read").asBoolean() ? "  [unread]" : "");
                    out.println("    " + message.path("text").asText().replace("\n", "\n    "));
                }
                if (shown.isEmpty()) {
                    out.println(unread ? "no unread messages" : "no messages");
                }
            });
            return 0;
        }

        static Instant instant(String text) {
            Matcher relative = RELATIVE.matcher(text.trim().toLowerCase(Locale.ROOT));
            if (relative.matches()) {
                long amount = Long.parseLong(relative.group(1));
                Duration age = switch (relative.group(2)) {
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
                return Instant.now().minus(age);
            }
            try {
                return Instant.parse(text.trim());
            } catch (DateTimeParseException e) {
                throw new CliException("--since takes an ISO instant (2026-01-31T09:00:00Z) or an age (30m, 2h, 1d), not '"
                        + text + "'");
            }
        }
    }

    @Command(name = "read", description = "Mark messages read: their ids, or --all.")
    static final class Read extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Mixin AgentOptions agent;
        @Parameters(arity = "0..*", paramLabel = "ID") List<Long> ids;
        @Option(names = "--all", description = "Mark every message in the inbox read.") boolean all;

        @Override
        public Integer call() {
            boolean hasIds = ids != null && !ids.isEmpty();
            if (all == hasIds) {
                throw new CliException(all ? "give either ID… or --all, not both" : "name the messages to mark read, or --all");
            }
            AgentCaller caller = agent.resolve(client());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("session_id", caller.sessionId());
            if (all) {
                body.put("all", true);
            } else {
                body.put("ids", ids);
            }
            JsonNode reply = caller.client().post("/v1/messages/read", body, Duration.ofSeconds(10));
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> out.println("marked read: " + reply.path("marked").size() + " message(s)"
                    + (reply.path("already_read").isEmpty() ? "" : "; already read: " + reply.path("already_read").size())));
            return 0;
        }
    }
}
