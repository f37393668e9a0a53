package dev.baton.installer.service;

import java.nio.file.Path;

/**
 * The systemd user units that keep the sidecar ready: {@code baton.socket} listens on 127.0.0.1:PORT from login on,
 * and {@code baton.service} gets that listening socket as its standard input ({@code StandardInput=socket}) and
 * serves it. The service starts at login too, so the JVM is up before the first edit; when it is not running
 * (stopped with {@code baton stop}, or it failed), the next connection starts it and waits in the socket's queue.
 *
 * @param launcher  the installed {@code baton} launcher the service runs
 * @param batonHome the sidecar's BATON_HOME
 * @param port      the configured port (BATON_PORT, else 7433)
 * @param path      the PATH the launcher finds {@code java} on (the installing shell's; the user manager's is short)
 * @param settings  the file of further settings the sidecar runs with (the team's), when it exists
 */
public record SystemdUnits(Path launcher, Path batonHome, int port, String path, Path settings) {

    public static final String SOCKET = "baton.socket";
    public static final String SERVICE = "baton.service";
    /** Marks a unit file as Baton's, so uninstall never removes a file someone else wrote under that name. */
    public static final String MARK = "# Baton sidecar, written by `baton service install`; `baton service uninstall` removes it.";

    public String socket() {
        return MARK + "\n"
                + "[Unit]\n"
                + "Description=Baton sidecar socket (file locks for AI coding agents)\n"
                + "\n"
                + "[Socket]\n"
                // 127.0.0.1 only: an IPv4 socket, so it is never reachable over IPv6 or from other machines.
                + "ListenStream=127.0.0.1:" + port + "\n"
                + "Accept=no\n"
                + "\n"
                + "[Install]\n"
                + "WantedBy=sockets.target\n";
    }

    public String service() {
        return MARK + "\n"
                + "[Unit]\n"
                + "Description=Baton sidecar (file locks for AI coding agents)\n"
                + "Requires=" + SOCKET + "\n"
                + "After=" + SOCKET + "\n"
                + "\n"
                + "[Service]\n"
                + "Type=simple\n"
                + "ExecStart=" + executable(launcher.toString()) + " serve\n"
                + "Environment=" + environmentAssignment("BATON_HOME", batonHome.toString()) + "\n"
                + "Environment=" + environmentAssignment("PATH", path) + "\n"
                // "-": a missing file is no error (no team); systemd expands specifiers in the name, so % is doubled.
                + "EnvironmentFile=-" + settings.toString().replace("%", "%%") + "\n"
                // The listening socket is fd 0; output must not go to it (the default for a socket input would).
                // The sidecar copies its output to sidecar.log in BATON_HOME as well.
                + "StandardInput=socket\n"
                + "StandardOutput=journal\n"
                + "StandardError=journal\n"
                + "\n"
                + "[Install]\n"
                + "WantedBy=default.target\n";
    }

    /**
     * The program of an ExecStart line: double-quoted with C escapes for {@code \} and {@code "}, and {@code %}
     * doubled, since systemd expands specifiers there (systemd.service(5), "Command lines"). A {@code $} stays as it
     * is: systemd substitutes variables in the arguments only, and would keep a doubled one in the program's path
     * (systemd-analyze verify confirms both).
     */
    public static String executable(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("%", "%%") + "\"";
    }

    /** One Environment= assignment, quoted whole; specifiers are expanded there too, variables are not. */
    public static String environmentAssignment(String name, String value) {
        return "\"" + name + "=" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("%", "%%") + "\"";
    }
}
