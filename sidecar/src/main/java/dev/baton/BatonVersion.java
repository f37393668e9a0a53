package dev.baton;

/** The version every component reports, from the jar manifest when packaged. */
public final class BatonVersion {

    public static final String VERSION = resolve();

    private BatonVersion() {
    }

    private static String resolve() {
        String fromManifest = BatonVersion.class.getPackage().getImplementationVersion();
        return fromManifest == null ? "dev" : fromManifest;
    }
}
