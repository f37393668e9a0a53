package dev.baton.store;

import dev.baton.home.BatonHome;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * SQLite's native library, loaded from the copy kept in the home. Left to itself, sqlite-jdbc unpacks the library from
 * the jar into the shared temporary directory at every start, reads it back to compare it with the jar's, and first
 * runs {@code uname -o} (a process) to tell Android from Linux; it loads the library {@code org.sqlite.lib.path} and
 * {@code org.sqlite.lib.name} name instead, and unpacks as before when that one does not load.
 */
public final class SqliteLibrary {

    private static final String PATH = "org.sqlite.lib.path";
    private static final String NAME = "org.sqlite.lib.name";

    private final BatonHome home;
    private final String variant;

    private SqliteLibrary(BatonHome home, String variant) {
        this.home = home;
        this.variant = variant;
    }

    /**
     * Loads the home's copy, if there is one, and points the driver at it before anything opens a database; a copy
     * that does not load is removed and the driver unpacks its own (a damaged copy must not look like an unreadable
     * database). Only for a home that {@link BatonHome#prepare()} found private: a library is loaded from there.
     */
    public static SqliteLibrary choose(BatonHome home) {
        String variant = (SQLiteJDBCLoader.getVersion() + "-" + System.getProperty("os.name") + "-"
                + System.getProperty("os.arch")).replaceAll("[^A-Za-z0-9._-]", "_");
        Path kept = home.sqliteLibrary(variant);
        if (System.getProperty(PATH) == null && Files.isRegularFile(kept) && loads(kept)) {
            System.setProperty(PATH, kept.getParent().toString());
            System.setProperty(NAME, kept.getFileName().toString());
        }
        return new SqliteLibrary(home, variant);
    }

    /** Loads the library, and keeps a copy in the home when there was none or the one there did not load. */
    public void load() {
        // With the path set, what loaded is the home's copy (set by choose) or one chosen by whoever runs the sidecar.
        if (initialize() && System.getProperty(PATH) == null) {
            keep();
        }
    }

    private void keep() {
        String resource = LibraryLoaderUtil.getNativeLibResourcePath() + "/" + LibraryLoaderUtil.getNativeLibName();
        try (InputStream library = SQLiteJDBCLoader.class.getResourceAsStream(resource)) {
            if (library != null) {
                home.keepSqliteLibrary(variant, library);
            }
        } catch (IOException e) {
            // the next start unpacks it again
        }
    }

    private static boolean initialize() {
        try {
            return SQLiteJDBCLoader.initialize();
        } catch (Exception e) {
            return false; // the store's first connection loads it again and says what fails
        }
    }

    /** Whether the kept copy loads (the driver's own load of it is then answered at once); a damaged one is removed. */
    private static boolean loads(Path kept) {
        try {
            System.load(kept.toAbsolutePath().toString());
            return true;
        } catch (UnsatisfiedLinkError damaged) {
            try {
                Files.deleteIfExists(kept);
            } catch (IOException e) {
                // the new copy is moved over it
            }
            return false;
        }
    }
}
