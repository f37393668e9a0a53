package dev.baton.shell;

import dev.baton.Baton;
import dev.baton.git.PlantedCode;
import dev.baton.git.RepoRoot;
import dev.baton.lock.FileLock;
import dev.baton.lock.HeldMessage;
import dev.baton.liveness.Staleness;
import dev.baton.lock.LockRows;
import dev.baton.session.ProcessAncestry;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.World;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Which files an agent's shell command must find read-only: every file another live session holds. The sessions
 * run by the agent process above the caller (its conversation and that conversation's subagents) keep theirs
 * writable. Who the caller is comes from the kernel's view of the wrapper's connection and the process ancestry
 * above it, never from anything the wrapper sends; the wrapper only carries out the answer (hook-scripts'
 * baton-shell binds each file read-only over itself in a namespace of the command's own).
 */
public final class Enforcement {

    /** Programs that gain privileges through a setuid bit, which a user namespace ignores: they would fail in it. */
    private static final Set<String> PRIVILEGED = Set.of("sudo", "doas", "pkexec", "run0", "su");

    private final Baton baton;
    private final ShellSettings settings;
    private final HardLinks links = new HardLinks();

    public Enforcement(Baton baton, ShellSettings settings) {
        this.baton = baton;
        this.settings = settings;
    }

    /** What the wrapper does with a command. */
    public enum Mode {
        /** Not an agent's command, or enforcement is off: the command runs as it is. */
        NONE,
        /**
         * The command runs in Baton's namespace, the files bound read-only and the directories pinned, and the
         * wrapper follows the lock table while anything of the command runs (even with nothing held yet).
         */
        BIND,
        /** The command runs without the namespace ({@link Plan#why} says why); Baton's checks before and after apply. */
        UNWRAPPED
    }

    /**
     * @param files canonical paths to make read-only: the files other sessions hold, those in the command's
     *              repository first (one that does not exist yet is bound when it appears), the other names of those
     *              with hard links in their working tree ({@link HardLinks}), then what would plant code for them to
     *              run ({@link PlantedCode})
     * @param pins the directories above those files, up to their repository's root, which no process of the command
     *             may rename or remove (shallowest first)
     * @param held the files of {@code files} other sessions hold that exist now: a change to one of them was its
     *             holder's
     * @param note what the agent reads when the command fails while the files were read-only
     * @param why for {@link Mode#UNWRAPPED}, the reason
     */
    public record Plan(Mode mode, List<String> files, List<String> pins, List<String> held, String note, String why) {
        public Plan {
            files = List.copyOf(files);
            pins = List.copyOf(pins);
            held = List.copyOf(held);
        }

        public Plan(Mode mode, List<String> files, String note, String why) {
            this(mode, files, List.of(), files, note, why);
        }

        /** What the plan asks of the binds, as a short name: the wrapper asks again only when it changes. */
        public String version() {
            try {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                files.forEach(file -> digest.update(("f" + file + "\n").getBytes(StandardCharsets.UTF_8)));
                pins.forEach(pin -> digest.update(("d" + pin + "\n").getBytes(StandardCharsets.UTF_8)));
                return HexFormat.of().formatHex(digest.digest(), 0, 8);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
            }
        }
    }

    /**
     * @param own the sessions the caller acts for ({@link #ownSessions(ProcessIdentity)}): theirs stay writable
     * @param announced the command as the agent announced it at its PreToolUse, when the wrapper's run was matched
     *                  to one; null otherwise
     * @param cwd the directory it runs in, for how the note shows paths; null when unknown
     */
    public Plan plan(Set<String> own, String announced, Path cwd) {
        if (!settings.enabled() || !settings.enforce()) {
            return new Plan(Mode.NONE, List.of(), "", "");
        }
        Map<String, Session> held = othersHeld(own);
        if (held.isEmpty() && own.isEmpty()) {
            return new Plan(Mode.NONE, List.of(), "", ""); // no agent's command: nothing to follow
        }
        if (!held.isEmpty() && announced != null && onlyPrivileged(announced)) {
            return new Plan(Mode.UNWRAPPED, List.of(), "", "it runs a program that needs privileges (sudo, su,"
                    + " doas, pkexec, run0), which a user namespace takes away");
        }
        return protecting(held, cwd);
    }

    /** The plan for a command of {@code own}'s that already runs in Baton's namespace, as the lock table is now. */
    public Plan live(Set<String> own, Path cwd) {
        if (!settings.enabled() || !settings.enforce()) {
            return new Plan(Mode.BIND, List.of(), "", "");
        }
        return protecting(othersHeld(own), cwd);
    }

    private Plan protecting(Map<String, Session> held, Path cwd) {
        List<String> files = new ArrayList<>(held.keySet());
        files.sort(Comparator.comparing((String file) -> cwd == null || !Path.of(file).startsWith(cwd)).thenComparing(file -> file));
        if (files.size() > settings.guardLimit()) {
            files = files.subList(0, settings.guardLimit());
        }
        if (files.isEmpty()) {
            return new Plan(Mode.BIND, List.of(), List.of(), List.of(), "", "");
        }
        Map<Path, Optional<Path>> roots = new HashMap<>();
        Set<String> planted = new LinkedHashSet<>();
        TreeSet<String> pins = new TreeSet<>(Comparator.comparingLong((String dir) -> dir.chars().filter(c -> c == '/').count())
                .thenComparing(dir -> dir));
        for (String file : files) {
            Path path = Path.of(file);
            Path parent = path.getParent();
            if (parent == null) {
                continue;
            }
            Optional<Path> root = roots.computeIfAbsent(parent, RepoRoot::of);
            if (root.isPresent() && path.startsWith(root.get())) {
                for (Path dir = parent; dir != null && dir.startsWith(root.get()); dir = dir.getParent()) {
                    pins.add(dir.toString());
                }
                Path dotGit = root.get().resolve(".git");
                if (Files.isDirectory(dotGit, LinkOption.NOFOLLOW_LINKS)) {
                    pins.add(dotGit.toString());
                }
                PlantedCode.ofRepository(root.get()).forEach(code -> planted.add(code.toString()));
            } else {
                pins.add(parent.toString());
            }
        }
        PlantedCode.ofHome(Path.of(System.getProperty("user.home"))).forEach(code -> planted.add(code.toString()));
        pins.removeIf(dir -> !Files.isDirectory(Path.of(dir), LinkOption.NOFOLLOW_LINKS));
        List<String> existing = files.stream().filter(file -> Files.exists(Path.of(file), LinkOption.NOFOLLOW_LINKS)).toList();
        List<String> binds = new ArrayList<>(files);
        for (String file : existing) {
            Path path = Path.of(file);
            Path within = roots.getOrDefault(path.getParent(), Optional.empty()).filter(path::startsWith)
                    .orElse(path.getParent());
            links.of(file, within).stream().filter(link -> !binds.contains(link)).forEach(binds::add);
        }
        planted.stream().filter(code -> !held.containsKey(code)).forEach(binds::add);
        String note = existing.isEmpty() ? "" : note(existing, held, cwd);
        return new Plan(Mode.BIND, binds, List.copyOf(pins), existing, note, "");
    }

    /**
     * Whether a session outside {@code sessionId}'s own holds a file in {@code repository} (any file, for an empty
     * one): then a write that plants code there would run in that session's commands.
     */
    public boolean othersHoldIn(String sessionId, Optional<Path> repository) {
        return baton.ledger().read(world -> {
            String main = world.find(SessionRows.SESSIONS, sessionId).map(Session::familyId).orElse(sessionId);
            Set<String> own = new LinkedHashSet<>(List.of(main));
            SessionRows.subagentsOf(world, main).forEach(sub -> own.add(sub.id()));
            return world.rows(LockRows.FILES).stream().anyMatch(lock -> !own.contains(lock.sessionId())
                    && repository.map(root -> Path.of(lock.file()).startsWith(root)).orElse(true));
        });
    }

    /**
     * Whether every program the command line runs gains privileges ({@code sudo apt install …}): such a line would
     * only fail in a namespace. Any other program beside it, a substitution or syntax the parser does not follow
     * keeps the namespace: a privileged program in it fails, the rest is protected.
     */
    static boolean onlyPrivileged(String command) {
        List<ShellNode.Simple> simple = new ArrayList<>();
        try {
            if (!collect(ShellParser.parse(command), simple)) {
                return false;
            }
        } catch (RuntimeException | StackOverflowError e) {
            return false;
        }
        return !simple.isEmpty() && simple.stream().allMatch(command1 -> !command1.words().isEmpty()
                && command1.substitutions().isEmpty() && PRIVILEGED.contains(command1.words().get(0).literal()));
    }

    private static boolean collect(List<ShellNode> nodes, List<ShellNode.Simple> simple) {
        for (ShellNode node : nodes) {
            if (node instanceof ShellNode.Simple command) {
                simple.add(command);
            } else if (node instanceof ShellNode.Group group) {
                if (!collect(group.body(), simple)) {
                    return false;
                }
            } else {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a session outside {@code sessionId}'s own (the conversation it belongs to and that conversation's
     * subagents) holds a file: then its agent's next shell command should run through the wrapper.
     */
    public boolean othersHoldFiles(String sessionId) {
        if (!settings.enabled() || !settings.enforce()) {
            return false;
        }
        return baton.ledger().read(world -> {
            String main = world.find(SessionRows.SESSIONS, sessionId).map(Session::familyId).orElse(sessionId);
            Set<String> own = new LinkedHashSet<>(List.of(main));
            SessionRows.subagentsOf(world, main).forEach(sub -> own.add(sub.id()));
            return world.rows(LockRows.FILES).stream().anyMatch(lock -> !own.contains(lock.sessionId()));
        });
    }

    /** The sessions the caller acts for (see {@link #ownSessions(World, ProcessIdentity)}). */
    public Set<String> ownSessions(ProcessIdentity caller) {
        return baton.ledger().read(world -> ownSessions(world, caller));
    }

    /**
     * Files held by live sessions other than the caller's own, with their holders. Each holder's process is checked
     * once, however many files it holds; only a holder that exited costs a write (its files are freed now, as they
     * would be on the next acquire, so they are free to write).
     */
    private Map<String, Session> othersHeld(Set<String> own) {
        Instant now = baton.clock().instant();
        Set<Session> stale = new HashSet<>();
        Map<String, Session> held = baton.ledger().read(world -> {
            Map<String, Session> holders = new HashMap<>();
            Map<String, Session> files = new TreeMap<>();
            for (FileLock lock : world.rows(LockRows.FILES)) {
                if (own.contains(lock.sessionId())) {
                    continue;
                }
                Session holder = holders.computeIfAbsent(lock.sessionId(), id -> world.find(SessionRows.SESSIONS, id)
                        .filter(session -> {
                            boolean fresh = baton.locks().liveness().of(session, now) == Staleness.FRESH;
                            if (!fresh) {
                                stale.add(session);
                            }
                            return fresh;
                        }).orElse(null));
                if (holder != null) {
                    files.put(lock.file(), holder);
                }
            }
            return files;
        });
        if (!stale.isEmpty()) {
            baton.ledger().write(tx -> {
                for (Session holder : stale) {
                    tx.world().find(SessionRows.SESSIONS, holder.id())
                            .ifPresent(current -> baton.locks().freeIfStale(tx, current));
                }
                return null;
            });
        }
        return held;
    }

    /**
     * The sessions the caller acts for: those whose agent process is the caller or one of its ancestors (pid and
     * start instant), with their subagents. Empty for a caller no agent started, which holds nothing.
     */
    static Set<String> ownSessions(World world, ProcessIdentity caller) {
        Set<String> own = new LinkedHashSet<>();
        List<Session> withProcess = world.rows(SessionRows.SESSIONS).stream().filter(session -> session.process() != null)
                .toList();
        if (withProcess.isEmpty()) {
            return own;
        }
        ProcessAncestry.ancestry(caller).filter(process -> {
            withProcess.stream().filter(session -> ProcessAncestry.sameProcess(session.process(), process))
                    .forEach(session -> own.add(session.id()));
            return !own.isEmpty();
        }).findFirst();
        for (String id : List.copyOf(own)) {
            SessionRows.subagentsOf(world, id).forEach(sub -> own.add(sub.id()));
        }
        return own;
    }

    private static String note(List<String> files, Map<String, Session> held, Path cwd) {
        List<String> shown = new ArrayList<>();
        for (String file : files.subList(0, Math.min(files.size(), 8))) {
            Session holder = held.get(file);
            shown.add(relative(file, cwd) + " (held by " + holder.agent().wireName() + " session "
                    + HeldMessage.shortId(holder.id()) + Optional.ofNullable(holder.process()).map(process -> ", pid " + process.pid()).orElse("")
                    + ")");
        }
        String more = files.size() > shown.size() ? " and " + (files.size() - shown.size()) + " more" : "";
        String first = relative(files.get(0), cwd);
        return "Baton: files other sessions hold were read-only while this command ran: " + String.join(", ", shown) + more
                + ". A \"Read-only file system\" or \"Device or resource busy\" error on one of them means the command"
                + " tried to change another session's work: leave the file to its holder, or ask for it with `baton"
                + " negotiate " + HeldMessage.quoted(first) + " --reason \"…\"`.";
    }

    private static String relative(String file, Path cwd) {
        Path path = Path.of(file);
        return cwd != null && path.startsWith(cwd) && !path.equals(cwd) ? cwd.relativize(path).toString() : file;
    }
}
