package dev.baton.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.Baton;
import dev.baton.lock.CanonicalPath;
import dev.baton.negotiation.Answer;
import dev.baton.negotiation.NegotiationOutcome;
import dev.baton.negotiation.NegotiationRequest;
import dev.baton.negotiation.NegotiationView;
import dev.baton.negotiation.Negotiations;
import dev.baton.negotiation.Urgency;
import dev.baton.session.Session;
import java.time.Duration;
import java.util.List;

/** negotiate_release and respond_to_release: asking a holder for its file, and answering such a request. */
final class NegotiationTools {

    private final Baton baton;

    NegotiationTools(Baton baton) {
        this.baton = baton;
    }

    List<Tool> tools() {
        int maxReason = Negotiations.MAX_REASON_LENGTH;
        return List.of(
                new Tool("negotiate_release", "Ask the holder of a file for it",
                        "Ask the session that holds a file to hand it over. The holder is told on its next tool call and"
                                + " answers release or defer (keeping it up to 60 more minutes, with a reason). Returns the"
                                + " negotiation id and status: pending, deferred, released, timeout-eligible or withdrawn."
                                + " A request the holder leaves unanswered times out after 10 minutes (urgent: 5); then"
                                + " you may take the file with `baton force-release FILE`. With wait_seconds the call waits"
                                + " until the file is released, the request times out, the holder defers past the wait, or"
                                + " the wait ends. Asking again for the same file returns the same request.",
                        Schema.agentCall()
                                .property("file", Schema.string("The held file: an absolute path, or relative to cwd.", 1, 4096))
                                .property("cwd", LockTools.cwdSchema())
                                .property("reason", Schema.string("Why you need the file now; the holder decides on it.",
                                        1, maxReason))
                                .property("urgency", Schema.choice("urgent gives the holder 5 minutes to answer, normal 10.",
                                        "normal", "normal", "urgent"))
                                .property("wait_seconds", Schema.integer("How long to wait for the outcome; 0 returns at once.",
                                        0, LockTools.MAX_WAIT_SECONDS, 0))
                                .required("file", "reason").build(),
                        this::negotiate),
                new Tool("respond_to_release", "Answer a request for your file",
                        "Answer a request another session made for a file you hold (the request id came with your"
                                + " context, e.g. n-k3x9qa). \"release\" frees the file now; a deferral keeps it for up to"
                                + " 60 more minutes and tells the requester why. After the deferral's time the requester"
                                + " may force-release the file.",
                        Schema.agentCall()
                                .property("negotiation_id", Schema.string("The request's id, such as n-k3x9qa.", 1, 40))
                                .property("answer", Schema.oneOf("Either \"release\", or a deferral {eta_minutes, reason}.",
                                        Schema.constant("Hand the file over now: it is released.", "release"),
                                        Schema.object()
                                                .description("Keep the file a while longer.")
                                                .property("eta_minutes", Schema.integer(
                                                        "Minutes until you release it, 1 to 60.", 1, Answer.MAX_ETA_MINUTES, null))
                                                .property("reason", Schema.string("Why you keep it; the requester reads this.",
                                                        1, maxReason))
                                                .required("eta_minutes", "reason").build()))
                                .required("negotiation_id", "answer").build(),
                        this::respond));
    }

    private ToolResult negotiate(ToolArgs args) {
        Session session = args.session();
        String file = CanonicalPath.of(args.string("file"), LockTools.cwd(args, session), args.caller()::self);
        NegotiationOutcome outcome = baton.negotiations().negotiate(new NegotiationRequest(session.id(), file,
                args.string("reason"), Urgency.parse(args.string("urgency")),
                Duration.ofSeconds(args.integer("wait_seconds", 0))));
        NegotiationView view = outcome.negotiation();
        String text = view.summary() + (outcome.created() ? "" : " (You had asked already; this is that request.)");
        return ToolResult.ok(text, outcome);
    }

    private ToolResult respond(ToolArgs args) {
        Session session = args.session();
        JsonNode given = args.node("answer");
        Answer answer = given.isTextual() ? new Answer.Release(null)
                : new Answer.Defer(given.path("eta_minutes").asInt(), given.path("reason").asText());
        NegotiationView view = baton.negotiations().respond(session.id(), args.string("negotiation_id"), answer);
        return ToolResult.ok(view.summary(), view);
    }
}
