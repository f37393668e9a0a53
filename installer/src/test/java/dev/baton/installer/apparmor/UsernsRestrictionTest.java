package dev.baton.installer.apparmor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UsernsRestrictionTest {

    static final Path WRAPPER = Path.of("/home/dev/.local/share/baton/hooks/baton-shell");
    static final String PROFILE = ShellWrapperProfile.text(WRAPPER);

    @TempDir
    Path root;

    SimulatedKernel kernel;

    @BeforeEach
    void emptyRoot() {
        kernel = new SimulatedKernel(root);
    }

    @Test
    void ubuntu2404WithoutBatonsProfileNeedsTheProfile() throws Exception {
        kernel.ubuntu2404();

        UsernsRestriction userns = UsernsRestriction.read(root);

        assertThat(userns.restrictsUserns()).isTrue();
        assertThat(userns.loaded()).isEqualTo(UsernsRestriction.Loaded.NO);
        assertThat(userns.needsProfile(PROFILE)).isTrue();
        assertThat(userns.hasProfile()).isFalse();
    }

    @Test
    void aLoadedProfileOfBatonsIsEnough() throws Exception {
        kernel.ubuntu2404().profiles("unprivileged_userns (enforce)", "baton-shell (unconfined)");

        UsernsRestriction userns = UsernsRestriction.read(root);

        assertThat(userns.loaded()).isEqualTo(UsernsRestriction.Loaded.YES);
        assertThat(userns.needsProfile(PROFILE)).isFalse();
        assertThat(userns.hasProfile()).isTrue();
    }

    @Test
    void aProfileInstalledForAnotherPathOfTheWrapperIsNeededAgainThoughLoaded() throws Exception {
        kernel.ubuntu2404().profiles("baton-shell (unconfined)")
                .installedProfile(ShellWrapperProfile.text(Path.of("/opt/old/hooks/baton-shell")));

        assertThat(UsernsRestriction.read(root).needsProfile(PROFILE)).isTrue();
    }

    @Test
    void whereTheListIsUnreadableTheInstalledFileTellsWhetherTheRootStepWasDone() throws Exception {
        kernel.ubuntu2404().profilesUnreadable();
        assertThat(UsernsRestriction.read(root).loaded()).isEqualTo(UsernsRestriction.Loaded.UNKNOWN);
        assertThat(UsernsRestriction.read(root).needsProfile(PROFILE)).isTrue();

        kernel.installedProfile(PROFILE);

        assertThat(UsernsRestriction.read(root).needsProfile(PROFILE)).isFalse();
    }

    @Test
    void unrestrictedUserNamespacesNeedNoProfile() throws Exception {
        kernel.ubuntu2404().restrictUserns(false);

        UsernsRestriction userns = UsernsRestriction.read(root);

        assertThat(userns.restrictsUserns()).isFalse();
        assertThat(userns.needsProfile(PROFILE)).isFalse();
    }

    @Test
    void withoutAppArmorTheSettingRestrictsNothing() throws Exception {
        kernel.restrictUserns(true).appArmor(false);
        assertThat(UsernsRestriction.read(root).needsProfile(PROFILE)).isFalse();

        // A kernel without AppArmor at all has none of the files.
        assertThat(UsernsRestriction.read(root.resolve("none"))).isEqualTo(new UsernsRestriction(false, false,
                UsernsRestriction.Loaded.UNKNOWN, java.util.Optional.empty()));
    }
}
