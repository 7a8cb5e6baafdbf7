package io.mover.server.config;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobStorePropertiesTest {
    @Test
    void defaultsToEightExecutionsAtOnce() {
        assertThat(new MoverProperties.JobStoreProperties(null, null, null, null, null).threads()).isEqualTo(8);
        assertThat(new MoverProperties.JobStoreProperties(null, null, null, Duration.ofSeconds(10), 24).threads()).isEqualTo(24);
    }

    @Test
    void refusesTooFewOrTooManyThreadsNamingTheProperty() {
        assertThatThrownBy(() -> new MoverProperties.JobStoreProperties(null, null, null, null, 1))
                .hasMessage("mover.job-store.threads must be between 2 and 256, got 1");
        assertThatThrownBy(() -> new MoverProperties.JobStoreProperties(null, null, null, null, 257))
                .hasMessageContaining("got 257");
    }
}
