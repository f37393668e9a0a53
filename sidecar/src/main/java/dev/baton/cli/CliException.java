package dev.baton.cli;

/** A failure the CLI reports as one clear line on stderr, never as a stack trace. */
final class CliException extends RuntimeException {

    private final String code;

    CliException(String message) {
        this(message, null);
    }

    CliException(String message, String code) {
        super(message);
        this.code = code;
    }

    String code() {
        return code;
    }
}
