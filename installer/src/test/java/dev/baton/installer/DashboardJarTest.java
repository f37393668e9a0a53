package dev.baton.installer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.installer.layout.DashboardJar;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.program.ProgramFiles;
import dev.baton.installer.program.ProgramSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DashboardJarTest {

    @TempDir Path dir;

    @Test
    void anInstalledDashboardSitsNextToTheProgram() throws Exception {
        Path program = Files.createDirectories(dir.resolve("lib")).resolve("baton.jar");
        Files.writeString(program, "x");
        Path dashboard = Files.writeString(dir.resolve("lib/baton-dashboard.jar"), "y");

        assertThat(DashboardJar.find(Map.of(), program)).contains(dashboard);
    }

    @Test
    void inACheckoutTheDashboardsBuildOutputIsFound() throws Exception {
        Path program = Files.createDirectories(dir.resolve("sidecar/target")).resolve("baton.jar");
        Files.writeString(program, "x");
        Path dashboard = Files.createDirectories(dir.resolve("dashboard/target")).resolve("baton-dashboard.jar");
        Files.writeString(dashboard, "y");

        assertThat(DashboardJar.find(Map.of(), program)).contains(dashboard);
    }

    @Test
    void anExplicitJarWinsAndAMissingOneIsNotFound() throws Exception {
        Path explicit = Files.writeString(dir.resolve("elsewhere.jar"), "z");

        assertThat(DashboardJar.find(Map.of("BATON_DASHBOARD_JAR", explicit.toString()), null)).contains(explicit);
        assertThat(DashboardJar.find(Map.of(), dir.resolve("baton.jar"))).isEmpty();
    }

    @Test
    void installCopiesTheDashboardBesideTheProgram() throws Exception {
        Path program = Files.createDirectories(dir.resolve("build/sidecar/target")).resolve("baton.jar");
        Files.writeString(program, "program");
        Path built = Files.createDirectories(dir.resolve("build/dashboard/target")).resolve("baton-dashboard.jar");
        Files.writeString(built, "dashboard");
        InstallLayout layout = InstallLayout.fromEnvironment(Map.of("HOME", dir.resolve("home").toString()));

        new ProgramFiles(layout).install(new HookScript("#!/bin/bash\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                new ProgramSource(program, program.toString()), false);

        assertThat(layout.installedDashboardJar()).hasContent("dashboard");
        assertThat(layout.installedJar()).hasContent("program");
    }
}
