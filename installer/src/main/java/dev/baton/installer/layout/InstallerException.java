package dev.baton.installer.layout;

/** A failure the user can act on; its message names the file or value involved and what to do. */
public class InstallerException extends Exception {

    public InstallerException(String message) {
        super(message);
    }

    public InstallerException(String message, Throwable cause) {
        super(message, cause);
    }
}
