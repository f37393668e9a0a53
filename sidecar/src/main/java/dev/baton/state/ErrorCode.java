package dev.baton.state;

/** The closed set of error codes clients see in {@code {"error":{"code":...}}}. */
public enum ErrorCode {
    VALIDATION, NOT_FOUND, CONFLICT, LOCK_HELD, UNAUTHORIZED, FORBIDDEN, PAYLOAD_TOO_LARGE, STORAGE, INTERNAL
}
