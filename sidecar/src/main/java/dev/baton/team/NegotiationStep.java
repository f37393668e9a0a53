package dev.baton.team;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.baton.negotiation.Negotiation;
import dev.baton.negotiation.NegotiationStatus;
import java.time.Instant;

/**
 * One step of a negotiation between sessions of two machines, as the body of a "negotiation" event of the team's log
 * (JSON): a request, the holder's deferral, the file released, or the request withdrawn. The one owner of that wire
 * shape: the event's session is the sender, its detail the recipient ({@code MACHINE/SESSION}), its path the file.
 */
record NegotiationStep(String step, String id, String agent, String reason, String urgency, Instant createdAt,
                       Instant timeoutAt, Instant answeredAt, Integer etaMinutes, String answerReason, String resolution) {

    static final String REQUEST = "request";
    static final String DEFER = "defer";
    static final String RELEASED = "released";
    static final String WITHDRAWN = "withdrawn";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    /** A new request of {@code agent}'s session, for the holder's machine. */
    static NegotiationStep request(Negotiation n, String agent) {
        return new NegotiationStep(REQUEST, n.id(), agent, n.reason(), n.urgency().wireName(), n.createdAt(),
                n.timeoutAt(), null, null, null, null);
    }

    /** The answer of {@code agent}'s session, the holder, as its row now says: deferred, or released. */
    static NegotiationStep answer(Negotiation n, String agent) {
        return n.state() == NegotiationStatus.DEFERRED
                ? new NegotiationStep(DEFER, n.id(), agent, null, null, null, n.timeoutAt(), n.answeredAt(),
                        n.etaMinutes(), n.answerReason(), null)
                : released(n.id());
    }

    /** The file is no longer the holder's: the request is over. */
    static NegotiationStep released(String id) {
        return new NegotiationStep(RELEASED, id, null, null, null, null, null, null, null, null,
                NegotiationStatus.RELEASED.wireName());
    }

    /** The requester withdrew, or ended ({@code resolution} says which). */
    static NegotiationStep withdrawal(Negotiation n) {
        return new NegotiationStep(WITHDRAWN, n.id(), null, null, null, null, null, null, null, null, n.resolution());
    }

    String json() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a negotiation step did not turn into JSON", e);
        }
    }

    static NegotiationStep parse(String json) {
        try {
            NegotiationStep step = JSON.readValue(json, NegotiationStep.class);
            if (step.step() == null || step.id() == null) {
                throw new IllegalArgumentException("a negotiation step without its kind or id: " + json);
            }
            return step;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a negotiation step: " + e.getOriginalMessage(), e);
        }
    }
}
