package dev.baton.installer.apparmor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShellWrapperProfileTest {

    /** Where Debian and Ubuntu install the parser. */
    static final Path PARSER = Path.of("/usr/sbin/apparmor_parser");

    @TempDir
    Path temp;

    @Test
    void theProfileAllowsUserNamespacesToTheWrapperAloneInUbuntusForm() {
        assertThat(ShellWrapperProfile.text(Path.of("/home/dev/.local/share/baton/hooks/baton-shell"))).isEqualTo("""
                # Written by `baton install`: lets Baton's shell wrapper, and only it, make the user namespace in which
                # it makes the files other sessions hold read-only, where AppArmor restricts unprivileged user
                # namespaces (kernel.apparmor_restrict_unprivileged_userns=1, Ubuntu 23.10 and later).
                abi <abi/4.0>,

                include <tunables/global>

                profile baton-shell /home/dev/.local/share/baton/hooks/baton-shell flags=(unconfined) {
                  userns,

                  # Site-specific additions and overrides. See local/README for details.
                  include if exists <local/baton-shell>
                }
                """);
    }

    @Test
    void aPathWithSpacesIsQuotedAndPatternCharactersAreEscaped() {
        assertThat(profileLine("/home/Jane Doe/.local/share/baton/hooks/baton-shell"))
                .isEqualTo("profile baton-shell \"/home/Jane Doe/.local/share/baton/hooks/baton-shell\" flags=(unconfined) {");
        assertThat(profileLine("/home/dev/a*b?[c]{d}^\"e\\/baton-shell"))
                .isEqualTo("profile baton-shell \"/home/dev/a\\*b\\?\\[c\\]\\{d\\}\\^\\\"e\\\\/baton-shell\" flags=(unconfined) {");
        assertThat(profileLine("/home/dev,x#y/baton-shell"))
                .isEqualTo("profile baton-shell \"/home/dev,x#y/baton-shell\" flags=(unconfined) {");
    }

    @Test
    void aPathNoProfileCanNameIsRefused() {
        assertThatThrownBy(() -> ShellWrapperProfile.text(Path.of("hooks/baton-shell")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absolute path");
        assertThatThrownBy(() -> ShellWrapperProfile.text(Path.of("/home/dev/a\nb/baton-shell")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("control characters");
    }

    @Test
    void theRootStepInstallsAndLoadsTheFileQuotedForTheShell() {
        assertThat(ShellWrapperProfile.loadStep(Path.of("/home/Jane Doe/hooks/baton-shell.apparmor"))).isEqualTo(
                "sudo install -m 0644 '/home/Jane Doe/hooks/baton-shell.apparmor' /etc/apparmor.d/baton-shell"
                        + " && sudo apparmor_parser -r /etc/apparmor.d/baton-shell");
    }

    /** The whole profile, as AppArmor 4 (Ubuntu 24.04) parses it, without loading it into the kernel. */
    @Test
    void apparmorParserOfAppArmor4ParsesTheProfile() throws Exception {
        assumeTrue(Files.isExecutable(PARSER), "apparmor_parser is not installed (apt-get install apparmor)");
        assumeTrue(Files.exists(Path.of("/etc/apparmor.d/abi/4.0")), "this apparmor_parser predates AppArmor 4.0,"
                + " which brought the userns rule (Debian 12 ships 3.0); the next test parses the rest");
        Path profile = Files.writeString(temp.resolve("baton-shell"), ShellWrapperProfile.text(
                Path.of("/home/Jane Doe/.local/share/baton/hooks/baton-shell")), StandardCharsets.UTF_8);

        assertThat(parse(profile)).isEqualTo("");
    }

    /**
     * An AppArmor 3 parser knows neither the 4.0 ABI nor the userns rule; without those two lines it checks all the
     * rest, the attachment's quoting and escapes above all.
     */
    @Test
    void apparmorParserParsesTheAttachmentAndIncludesOfEveryPath() throws Exception {
        assumeTrue(Files.isExecutable(PARSER), "apparmor_parser is not installed (apt-get install apparmor)");
        for (String wrapper : List.of("/home/dev/.local/share/baton/hooks/baton-shell",
                "/home/Jane Doe/.local/share/baton/hooks/baton-shell", "/home/dev/a*b?[c]{d}^\"e\\,x#y/baton-shell")) {
            String text = ShellWrapperProfile.text(Path.of(wrapper));
            String rest = text.replace("abi <abi/4.0>,", "abi <abi/3.0>,").replace("  userns,\n", "");
            assertThat(rest).isNotEqualTo(text);
            Path profile = Files.writeString(temp.resolve("baton-shell"), rest, StandardCharsets.UTF_8);

            assertThat(parse(profile)).as(wrapper).isEqualTo("");
        }
        // The parser does fail a profile whose attachment is not quoted.
        Path broken = Files.writeString(temp.resolve("broken"), "abi <abi/3.0>,\nprofile baton-shell /home/Jane Doe/x"
                + " flags=(unconfined) {\n}\n", StandardCharsets.UTF_8);
        assertThat(parse(broken)).contains("AppArmor parser error");
    }

    /** What apparmor_parser reports, parsing without the kernel (-Q) or its cache (-K); empty when it parsed. */
    private static String parse(Path profile) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(PARSER.toString(), "-Q", "-K", profile.toString()));
        Process parser = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(parser.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(parser.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // Without AppArmor in the kernel it says so before anything else; that line is no verdict on the profile.
        String verdict = output.lines().filter(line -> !line.startsWith("Cache read/write disabled")).reduce("",
                (a, b) -> a + b + "\n");
        return parser.exitValue() == 0 ? verdict.strip() : verdict.isBlank() ? "exit " + parser.exitValue() : verdict;
    }

    private static String profileLine(String wrapper) {
        return ShellWrapperProfile.text(Path.of(wrapper)).lines().filter(line -> line.startsWith("profile ")).findFirst()
                .orElseThrow();
    }
}
