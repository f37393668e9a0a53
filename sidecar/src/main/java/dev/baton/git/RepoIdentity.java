package dev.baton.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What every clone of one repository is known by, on any machine: the committed identity file
 * {@value #IDENTITY_FILE} when there is one (its first line), else the normalised URL of the remote {@code origin}.
 * The root commit goes with it as a cross-check: two unrelated histories behind one name are not one repository.
 *
 * @param id         {@code file:NAME} or {@code origin:HOST/PATH} (or {@code origin:/PATH} for a remote on disk)
 * @param rootCommit the oldest commit of HEAD's history (the smallest, when there are several), null before one
 */
public record RepoIdentity(String id, String rootCommit) {

    public static final String IDENTITY_FILE = ".baton-repository";

    /** user@host:path, git's short form of an ssh URL. */
    private static final Pattern SCP_LIKE = Pattern.compile("^(?:[^@/]+@)?([^:/]+):(?!//)(.+)$");
    private static final Pattern URL = Pattern.compile("^[a-z][a-z0-9+.-]*://(?:[^@/]*@)?([^/:]+)(?::\\d+)?(/.*)?$");

    /**
     * The identity of the working tree at {@code root}; empty when it has neither an identity file nor an origin.
     * Throws when git could not say (too slow on a loaded machine, say): that is not knowing, not "no origin".
     */
    public static Optional<RepoIdentity> of(Path root, Duration timeout) throws GitException {
        Optional<String> file = fromIdentityFile(root);
        Optional<String> id = file.isPresent() ? file : origin(root, timeout).map(url -> "origin:" + normalise(url));
        return id.isEmpty() ? Optional.empty() : Optional.of(new RepoIdentity(id.get(), rootCommit(root, timeout)));
    }

    private static Optional<String> fromIdentityFile(Path root) {
        try {
            Path file = root.resolve(IDENTITY_FILE);
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#") && !isSetting(line))
                    .findFirst().map(line -> "file:" + line);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * A setting of the identity file ({@code branches: lock}): a line that starts with the setting's name and a colon;
     * the identity is the first line that is no setting.
     */
    static Optional<String> settingOf(Path root, String name) {
        try {
            Path file = root.resolve(IDENTITY_FILE);
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(String::strip)
                    .filter(line -> line.regionMatches(true, 0, name, 0, name.length()))
                    .map(line -> line.substring(name.length()).strip()).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean isSetting(String line) {
        return line.regionMatches(true, 0, WorkTreeCopies.RULE_LINE, 0, WorkTreeCopies.RULE_LINE.length());
    }

    private static Optional<String> origin(Path root, Duration timeout) throws GitException {
        // Exit 1 is git's "no such key": no origin. Anything else (a timeout) is thrown.
        String url = new String(GitProcess.run(root, timeout, new byte[0], 1, "config", "--get", "remote.origin.url"),
                StandardCharsets.UTF_8).strip();
        return url.isEmpty() ? Optional.empty() : Optional.of(url);
    }

    /**
     * The branch checked out at {@code root}, or the commit when HEAD is detached; empty in a repository without a
     * commit. Throws when git could not say.
     */
    public static Optional<String> branch(Path root, Duration timeout) throws GitException {
        Optional<String> name = new FileHistory(timeout).branch(root);
        if (name.isPresent()) {
            return name;
        }
        String commit = new String(GitProcess.run(root, timeout, new byte[0], 128, "rev-parse", "-q", "--verify", "HEAD"),
                StandardCharsets.UTF_8).strip();
        return commit.isEmpty() ? Optional.empty() : Optional.of(commit);
    }

    private static String rootCommit(Path root, Duration timeout) {
        try {
            String roots = new String(GitProcess.run(root, timeout, new byte[0], 128, "rev-list", "--max-parents=0", "HEAD"),
                    StandardCharsets.UTF_8).strip();
            return roots.lines().filter(line -> line.matches("[0-9a-f]{40,64}")).sorted().findFirst().orElse(null);
        } catch (GitException e) {
            return null;
        }
    }

    /**
     * One spelling for the URLs of one remote: {@code https://github.com/o/r.git}, {@code git@github.com:o/r} and
     * {@code ssh://git@GitHub.com:22/o/r/} are all {@code github.com/o/r}; a path on disk keeps its path.
     */
    public static String normalise(String url) {
        String value = url.strip();
        String host;
        String path;
        Matcher full = URL.matcher(value);
        Matcher scp = SCP_LIKE.matcher(value);
        if (full.matches()) {
            host = full.group(1);
            path = full.group(2) == null ? "" : full.group(2);
            if (value.regionMatches(true, 0, "file://", 0, 7)) {
                host = "";
                path = value.substring(7);
            }
        } else if (!value.startsWith("/") && !value.startsWith(".") && scp.matches()) {
            host = scp.group(1);
            path = "/" + scp.group(2);
        } else {
            host = "";
            path = value;
        }
        path = path.replaceAll("/+", "/");
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (path.endsWith(".git")) {
            path = path.substring(0, path.length() - 4);
        }
        return host.toLowerCase(Locale.ROOT) + path;
    }
}
