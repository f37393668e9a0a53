package dev.baton.dashboard.connection;

/** The sidecar refused or could not be asked; {@code code} is its error code (NOT_FOUND, VALIDATION, …). */
public final class SidecarApiException extends RuntimeException {

    private final String code;

    public SidecarApiException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** The sidecar has no such route or thing. */
    public boolean notFound() {
        return "NOT_FOUND".equals(code) || "HTTP_404".equals(code);
    }
}
