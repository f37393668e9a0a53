package dev.baton.installer.config;

/** A configuration key holds a value of the wrong type, so Baton cannot add its entry without guessing. */
final class ConfigShapeException extends RuntimeException {

    ConfigShapeException(String key, String found, String expected) {
        super("\"" + key + "\" is " + found + ", expected " + expected);
    }
}
