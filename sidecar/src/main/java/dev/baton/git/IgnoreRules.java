package dev.baton.git;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/** Which paths of a working tree git ignores (.gitignore, info/exclude, core.excludesFile), asked of git itself. */
public final class IgnoreRules {

    private IgnoreRules() {
    }

    /** The ones of {@code paths} (inside {@code root}) that git ignores; one git run for all of them. */
    public static Set<Path> ignored(Path root, Collection<Path> paths, Duration timeout) throws GitException {
        Set<Path> ignored = new HashSet<>();
        if (paths.isEmpty()) {
            return ignored;
        }
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        for (Path path : paths) {
            input.writeBytes(root.relativize(path).toString().getBytes(StandardCharsets.UTF_8));
            input.write(0);
        }
        // Exit 1: none of them is ignored.
        byte[] output = GitProcess.run(root, timeout, input.toByteArray(), 1, "check-ignore", "-z", "--stdin");
        for (String name : new String(output, StandardCharsets.UTF_8).split("\0")) {
            if (!name.isEmpty()) {
                ignored.add(root.resolve(name).normalize());
            }
        }
        return ignored;
    }
}
