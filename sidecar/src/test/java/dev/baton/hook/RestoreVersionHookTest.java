package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.state.AuditEntry;
import dev.baton.support.BatonCli;
import dev.baton.version.Versions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A held file another session's shell command overwrote, replaced by a rename or removed: its holder is told the one
 * command that puts its last version back, and {@code baton restore FILE}, run from the holder's own shell, writes
 * its exact bytes back with the mode the file had; the supervisor sees it in the file's history. Two stand-in agents
 * (real processes), a real repository, the real hook script, the real {@code baton} command.
 */
class RestoreVersionHookTest extends HookFixture {

    static final String CART = ShellAfterCheckTest.CART;
    /** Bytes no text tool would keep as they are: a final line without a newline, UTF-8, a tab, a carriage return. */
    static final String BY_A = "class Cart {\r\n\t// größe ✓\n}";

    StandInAgent a;
    StandInAgent b;
    Path baton;

    @BeforeEach
    void startAgents() throws Exception {
        a = StandInAgent.start(harness, "a", "aaaaaaaa-1111-4000-8000-000000000001");
        b = StandInAgent.start(harness, "b", "bbbbbbbb-2222-4000-8000-000000000002");
        baton = harness.dir().resolve("baton");
        Files.writeString(baton, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path")
                + "' dev.baton.cli.BatonCommand \"$@\"\n");
        Files.setPosixFilePermissions(baton, PosixFilePermissions.fromString("rwx------"));
    }

    @AfterEach
    void stopAgents() {
        a.close();
        b.close();
    }

    private String toHolder() throws IOException {
        return a.announce("git status", "toolu_next").json().at("/hookSpecificOutput/additionalContext").asText();
    }

    private List<AuditEntry> history(String action) {
        return harness.baton().ledger().store().auditSince(0, 10_000).stream()
                .filter(entry -> entry.action().equals(action)).toList();
    }

    /** A holds Cart.java with its own bytes and a mode of its own; B's {@code command} then runs. */
    private StandInAgent.ShellCall heldThenChangedBy(String command) throws IOException {
        Path cart = harness.repo().path(CART);
        Files.setPosixFilePermissions(cart, PosixFilePermissions.fromString("rwxr-x---"));
        assertThat(a.write(CART, BY_A).stdout()).doesNotContain("deny");
        return b.bash(command);
    }

    private void restoredByItsHolder() throws IOException {
        String told = toHolder();
        assertThat(told).contains("`baton restore " + CART + "` puts your last version back");

        String restored = a.output(baton + " restore " + CART);

        assertThat(restored).contains("restored " + CART + " to session aaaaaaaa-1111-4000-8000-000000000001's last version");
        Path cart = harness.repo().path(CART);
        assertThat(Files.readAllBytes(cart)).isEqualTo(BY_A.getBytes(StandardCharsets.UTF_8));
        assertThat(Files.getPosixFilePermissions(cart)).isEqualTo(PosixFilePermissions.fromString("rwxr-x---"));
        assertThat(history(Versions.RESTORED)).singleElement().satisfies(entry -> {
            assertThat(entry.file()).endsWith(CART);
            assertThat(entry.actor()).isEqualTo(a.sessionId());
        });
    }

    @Test
    void aHeldFileAnotherSessionsCommandOverwroteIsPutBackWithItsHoldersExactBytes() throws Exception {
        StandInAgent.ShellCall call = heldThenChangedBy("python3 -c \"open('" + CART + "', 'w').write('by B')\"");
        assertThat(call.postContext()).contains("changed the working copy of " + CART);

        restoredByItsHolder();

        String toWriter = b.announce("true", "toolu_b_next").json().at("/hookSpecificOutput/additionalContext").asText();
        assertThat(toWriter).contains("was put back to its last version by its holder; your command's change to it is undone");
    }

    @Test
    void aHeldFileAnotherSessionsCommandReplacedByARenameIsPutBack() throws Exception {
        heldThenChangedBy("python3 -c \"import os; open('Cart.new', 'w').write('by B'); os.replace('Cart.new', '" + CART + "')\"");

        restoredByItsHolder();
    }

    @Test
    void aHeldFileAnotherSessionsCommandRemovedIsPutBack() throws Exception {
        heldThenChangedBy("python3 -c \"import os; os.remove('" + CART + "')\"");
        assertThat(harness.repo().path(CART)).doesNotExist();

        restoredByItsHolder();
    }

    @Test
    void theHistoryShowsTheKeptVersionTheOfferAndTheRestore() throws Exception {
        heldThenChangedBy("python3 -c \"open('" + CART + "', 'w').write('by B')\"");
        String hash = history(Versions.OFFERED).get(0).reason().substring("sha256 ".length());
        restoredByItsHolder();

        String shown = b.output(baton + " history " + CART);

        assertThat(shown).contains(Versions.KEPT + " " + a.sessionId() + " (sha256 " + hash)
                .contains(Versions.OFFERED + " " + a.sessionId() + " (sha256 " + hash + ") by " + b.sessionId())
                .contains(Versions.RESTORED + " " + a.sessionId() + " (sha256 " + hash + ") by " + a.sessionId());
    }

    @Test
    void theHoldersVersionIsStillRestoredAfterTheSidecarRestarted() throws Exception {
        heldThenChangedBy("python3 -c \"open('" + CART + "', 'w').write('by B')\"");
        assertThat(toHolder()).contains("baton restore " + CART);

        harness.restartSidecar();
        String restored = a.output(baton + " restore " + CART);

        assertThat(restored).contains("restored " + CART);
        assertThat(Files.readAllBytes(harness.repo().path(CART))).isEqualTo(BY_A.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aFileTakenButNotYetWrittenIsPutBackAsItWasWhenItsHolderTookIt() throws Exception {
        byte[] base = Files.readAllBytes(harness.repo().path(CART));
        a.writeStarts(CART, BY_A, "toolu_a_edit"); // A's Write is under way: its bytes are not on disk yet

        b.bash("python3 -c \"open('" + CART + "', 'w').write('by B')\"");
        assertThat(toHolder()).contains("`baton restore " + CART + "` puts your last version back");
        a.output(baton + " restore " + CART);

        assertThat(Files.readAllBytes(harness.repo().path(CART))).isEqualTo(base);
    }

    @Test
    void theSupervisorPutsTheHoldersVersionBackFromItsOwnTerminal() throws Exception {
        heldThenChangedBy("python3 -c \"open('" + CART + "', 'w').write('by B')\"");

        BatonCli.Result result = new BatonCli(harness.home().dir(), harness.repo().root())
                .run("restore", CART, "--supervisor");

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(Files.readAllBytes(harness.repo().path(CART))).isEqualTo(BY_A.getBytes(StandardCharsets.UTF_8));
        assertThat(history(Versions.RESTORED)).singleElement()
                .satisfies(entry -> assertThat(entry.actor()).startsWith("supervisor"));
    }

    @Test
    void anotherSessionCannotPutTheHoldersVersionBack() throws Exception {
        heldThenChangedBy("python3 -c \"open('" + CART + "', 'w').write('by B')\"");

        String refused = b.output(baton + " restore " + CART + "; echo \"exit $?\"");

        assertThat(refused).contains("is session aaaaaaaa's; only that session, or the supervisor")
                .doesNotContain("exit 0");
        assertThat(harness.repo().path(CART)).hasContent("by B");
    }

    @Test
    void badInputToTheRestoreRouteIsAClear4xx() throws Exception {
        assertThat(post("not json")).satisfies(reply -> assertThat(reply.statusCode()).isEqualTo(400));
        assertThat(post("{\"session_id\":\"" + a.sessionId() + "\"}")).satisfies(reply -> {
            assertThat(reply.statusCode()).isEqualTo(400);
            assertThat(reply.body()).contains("VALIDATION").contains("a file path is empty");
        });
        assertThat(post("{\"file\":\"" + harness.repo().path(CART) + "\"}")).satisfies(reply -> {
            assertThat(reply.statusCode()).isEqualTo(400);
            assertThat(reply.body()).contains("session_id is required");
        });
        assertThat(post("{\"file\":\"" + CART + "\",\"session_id\":\"" + a.sessionId() + "\",\"cwd\":\"relative\"}"))
                .satisfies(reply -> assertThat(reply.statusCode()).isBetween(400, 499));

        String none = a.output(baton + " restore " + CART + "; echo \"exit $?\"");
        assertThat(none).contains("Baton kept no version of").doesNotContain("exit 0");
    }

    private HttpResponse<String> post(String body) throws Exception {
        String endpoint = harness.home().readEndpoint().orElseThrow();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + endpoint + "/v1/versions/restore"))
                .header("Authorization", "Bearer " + harness.home().readToken().orElseThrow())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

}
