package dev.baton.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.baton.state.BatonException;
import io.javalin.http.Context;
import java.io.IOException;

/** Reads request bodies and writes replies; every malformed body becomes a VALIDATION error naming the problem. */
public final class Bodies {

    private Bodies() {
    }

    public static <T> T read(Context ctx, Class<T> type) {
        byte[] body = ctx.bodyAsBytes();
        if (body.length == 0) {
            throw BatonException.invalid("the request body is empty; send a JSON object");
        }
        if (firstSignificantByte(body) != '{') {
            throw BatonException.invalid("the request body must be a JSON object");
        }
        try {
            return Json.mapper().readValue(body, type);
        } catch (UnrecognizedPropertyException e) {
            throw BatonException.invalid("unknown field '" + e.getPropertyName() + "'; known fields: "
                    + e.getKnownPropertyIds());
        } catch (MismatchedInputException e) {
            throw BatonException.invalid("field '" + fieldPath(e) + "' has the wrong type: " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw BatonException.invalid("the request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            // Nothing is read from a device here: an IOException from a byte array is undecodable text, such as
            // a body whose first bytes make the parser guess UTF-32 and whose later bytes are no UTF-32.
            throw BatonException.invalid("the request body is not valid JSON text: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw BatonException.invalid("the request body does not fit: " + e.getMessage());
        }
    }

    private static int firstSignificantByte(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return b;
            }
        }
        return -1;
    }

    private static String fieldPath(MismatchedInputException e) {
        StringBuilder path = new StringBuilder();
        e.getPath().forEach(reference -> {
            if (reference.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else {
                path.append('[').append(reference.getIndex()).append(']');
            }
        });
        return path.length() == 0 ? "(body)" : path.toString();
    }

    public static void reply(Context ctx, int status, Object body) {
        try {
            ctx.status(status).contentType("application/json").result(Json.mapper().writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a reply could not be written as JSON", e);
        }
    }

    public static void reply(Context ctx, Object body) {
        reply(ctx, 200, body);
    }

    public static String requiredQuery(Context ctx, String name) {
        String value = ctx.queryParam(name);
        if (value == null || value.isBlank()) {
            throw BatonException.invalid("query parameter '" + name + "' is required");
        }
        return value;
    }

    public static long longQuery(Context ctx, String name, long fallback, long min, long max) {
        String value = ctx.queryParam(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed < min || parsed > max) {
                throw BatonException.invalid("query parameter '" + name + "' must be between " + min + " and " + max);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw BatonException.invalid("query parameter '" + name + "' must be a whole number, was '" + value + "'");
        }
    }

    public static int intQuery(Context ctx, String name, int fallback, int min, int max) {
        String value = ctx.queryParam(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed < min || parsed > max) {
                throw BatonException.invalid("query parameter '" + name + "' must be between " + min + " and " + max);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw BatonException.invalid("query parameter '" + name + "' must be a whole number, was '" + value + "'");
        }
    }

    /** A {@code true}/{@code false} query parameter; absent or blank is false, anything else a 400. */
    static boolean booleanQuery(Context ctx, String name) {
        String value = ctx.queryParam(name);
        if (value == null || value.isBlank()) {
            return false;
        }
        if (!value.equals("true") && !value.equals("false")) {
            throw BatonException.invalid("query parameter '" + name + "' must be true or false, was '" + value + "'");
        }
        return Boolean.parseBoolean(value);
    }
}
