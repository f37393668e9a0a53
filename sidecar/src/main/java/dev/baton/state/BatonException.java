package dev.baton.state;

/** A refusal the caller can act on: a code from the closed set and a sentence saying what to do. */
public class BatonException extends RuntimeException {

    private final ErrorCode code;

    public BatonException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    public static BatonException invalid(String message) {
        return new BatonException(ErrorCode.VALIDATION, message);
    }

    public static BatonException notFound(String message) {
        return new BatonException(ErrorCode.NOT_FOUND, message);
    }
}
