package io.mover.cli;

import java.time.Duration;

import io.mover.spi.MoverException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnitsTest {
    @Test
    void sizesAreBinary() {
        assertThat(Units.parseSize("4096")).isEqualTo(4096);
        assertThat(Units.parseSize("512k")).isEqualTo(512 * 1024);
        assertThat(Units.parseSize("512KB")).isEqualTo(512 * 1024);
        assertThat(Units.parseSize("4MiB")).isEqualTo(4L << 20);
        assertThat(Units.parseSize("4m")).isEqualTo(4L << 20);
        assertThat(Units.parseSize("1.5g")).isEqualTo(3L << 29);
        assertThat(Units.parseSize("2T")).isEqualTo(2L << 40);
        assertThat(Units.parseSize("10B")).isEqualTo(10);
    }

    @Test
    void badSizesAreRefused() {
        for (String bad : new String[] {"", "k", "4x", "-4k", "4iB", "4 MiBs"}) {
            assertThatThrownBy(() -> Units.parseSize(bad)).as(bad).isInstanceOf(MoverException.class).hasMessageContaining("invalid size");
        }
    }

    @Test
    void durations() {
        assertThat(Units.parseDuration("2s")).isEqualTo(Duration.ofSeconds(2));
        assertThat(Units.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Units.parseDuration("1.5m")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Units.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Units.parseDuration("PT3S")).isEqualTo(Duration.ofSeconds(3));
        assertThatThrownBy(() -> Units.parseDuration("soon")).isInstanceOf(MoverException.class);
    }

    @Test
    void formatting() {
        assertThat(Units.bytes(0)).isEqualTo("0 B");
        assertThat(Units.bytes(1023)).isEqualTo("1023 B");
        assertThat(Units.bytes(3L << 29)).isEqualTo("1.5 GiB");
        assertThat(Units.rate(2 * 1024 * 1024)).isEqualTo("2.0 MiB/s");
        assertThat(Units.duration(Duration.ofMillis(2300))).isEqualTo("2.3s");
        assertThat(Units.duration(Duration.ofSeconds(245))).isEqualTo("4m05s");
        assertThat(Units.duration(Duration.ofSeconds(3723))).isEqualTo("1h02m03s");
    }
}
