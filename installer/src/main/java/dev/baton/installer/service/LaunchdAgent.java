package dev.baton.installer.service;

import java.nio.file.Path;
import java.util.SortedMap;

/**
 * The launchd agent that keeps the sidecar running on macOS ({@code ~/Library/LaunchAgents/dev.baton.sidecar.plist}):
 * started at login (RunAtLoad) and restarted when it exits (KeepAlive). No socket activation: launchd hands its
 * sockets over only through launch_activate_socket(3), a C call the JVM cannot make, so the sidecar binds its
 * port itself and the hook still starts it if it is not up. {@code settings} are further settings the sidecar runs
 * with (the team's); the plist is then readable by the user alone.
 */
public record LaunchdAgent(Path launcher, Path batonHome, int port, String path, SortedMap<String, String> settings) {

    public static final String LABEL = "dev.baton.sidecar";
    public static final String FILE_NAME = LABEL + ".plist";

    public String plist() {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
                + "<!-- " + SystemdUnits.MARK.substring(2) + " -->\n"
                + "<plist version=\"1.0\">\n"
                + "<dict>\n"
                + "  <key>Label</key><string>" + LABEL + "</string>\n"
                + "  <key>ProgramArguments</key>\n"
                + "  <array><string>" + xml(launcher.toString()) + "</string><string>serve</string></array>\n"
                + "  <key>EnvironmentVariables</key>\n"
                + "  <dict>\n"
                + "    <key>BATON_HOME</key><string>" + xml(batonHome.toString()) + "</string>\n"
                + "    <key>BATON_PORT</key><string>" + port + "</string>\n"
                + "    <key>PATH</key><string>" + xml(path) + "</string>\n"
                + String.join("", settings.entrySet().stream().map(setting -> "    <key>" + xml(setting.getKey())
                        + "</key><string>" + xml(setting.getValue()) + "</string>\n").toList())
                + "  </dict>\n"
                + "  <key>RunAtLoad</key><true/>\n"
                + "  <key>KeepAlive</key><true/>\n"
                // The sidecar copies its output to sidecar.log itself; launchd's copy would be a second one.
                + "  <key>StandardOutPath</key><string>/dev/null</string>\n"
                + "  <key>StandardErrorPath</key><string>/dev/null</string>\n"
                + "</dict>\n"
                + "</plist>\n";
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
