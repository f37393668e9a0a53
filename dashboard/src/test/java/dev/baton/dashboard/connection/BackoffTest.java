package dev.baton.dashboard.connection;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void delaysDoubleUpToTheMaximumAndStartOverAfterASuccess() {
        Backoff backoff = new Backoff(Duration.ofMillis(250), Duration.ofSeconds(1));

        assertThat(backoff.nextDelay()).isEqualTo(Duration.ofMillis(250));
        assertThat(backoff.nextDelay()).isEqualTo(Duration.ofMillis(500));
        assertThat(backoff.nextDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.nextDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.failures()).isEqualTo(4);

        backoff.reset();
        assertThat(backoff.failures()).isZero();
        assertThat(backoff.nextDelay()).isEqualTo(Duration.ofMillis(250));
    }
}
