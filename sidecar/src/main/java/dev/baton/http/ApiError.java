package dev.baton.http;

import dev.baton.state.ErrorCode;

/** The error body of every refusal: {@code {"error":{"code":"...","message":"..."}}}. */
record ApiError(Body error) {

    record Body(String code, String message) {
    }

    static ApiError of(ErrorCode code, String message) {
        return new ApiError(new Body(code.name(), message));
    }

    /** The code of a refusal that arrives only as an HTTP status (from Jetty or Javalin, not from Baton). */
    static ErrorCode codeOf(int status) {
        return switch (status) {
            case 401 -> ErrorCode.UNAUTHORIZED;
            case 403 -> ErrorCode.FORBIDDEN;
            case 404 -> ErrorCode.NOT_FOUND;
            case 413 -> ErrorCode.PAYLOAD_TOO_LARGE;
            default -> status >= 500 ? ErrorCode.INTERNAL : ErrorCode.VALIDATION;
        };
    }

    static int statusOf(ErrorCode code) {
        return switch (code) {
            case VALIDATION -> 400;
            case UNAUTHORIZED -> 401;
            case FORBIDDEN -> 403;
            case NOT_FOUND -> 404;
            case CONFLICT, LOCK_HELD -> 409;
            case PAYLOAD_TOO_LARGE -> 413;
            case STORAGE -> 503;
            case INTERNAL -> 500;
        };
    }
}
