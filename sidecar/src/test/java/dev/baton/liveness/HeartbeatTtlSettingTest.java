package dev.baton.liveness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** BATON_HEARTBEAT_TTL: how long a holder whose process cannot be checked may stay silent. */
class HeartbeatTtlSettingTest {

    @Test
    void unsetIsThirtyMinutes() {
        assertThat(HolderLiveness.heartbeatTtl(Map.of())).isEqualTo(Duration.ofMinutes(30));
        assertThat(HolderLiveness.heartbeatTtl(Map.of("BATON_HEARTBEAT_TTL", " "))).isEqualTo(Duration.ofMinutes(30));
    }

    @ParameterizedTest(name = "{0} is {1} s")
    @CsvSource({"90, 90", "90s, 90", "45m, 2700", "45min, 2700", "2h, 7200", " 10 m , 600"})
    void secondsOrANumberWithAUnit(String value, long seconds) {
        assertThat(HolderLiveness.heartbeatTtl(Map.of("BATON_HEARTBEAT_TTL", value))).hasSeconds(seconds);
    }

    @ParameterizedTest(name = "''{0}'' is refused")
    @ValueSource(strings = {"0", "-5", "ten", "5d", "1.5h", "PT30M"})
    void anythingElseIsRefusedNamingTheVariable(String value) {
        assertThatThrownBy(() -> HolderLiveness.heartbeatTtl(Map.of("BATON_HEARTBEAT_TTL", value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("BATON_HEARTBEAT_TTL must be a positive duration such as 1800, 45m or 2h, was '" + value + "'");
    }
}
