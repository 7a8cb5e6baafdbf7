package io.mover.plugins.tcp;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The receiver's cap on a clock of its own: the waits add up to the bytes at the rate, less one burst. */
class ReceiveCapTest {
    @Test
    void blocksWaitForTheirTurnAtTheCappedRate() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        AtomicLong slept = new AtomicLong();
        // 8 Mbit/s = 1,000,000 bytes a second
        ReceiveCap cap = new ReceiveCap(1_000_000, now::get, nanos -> {
            slept.addAndGet(nanos);
            now.addAndGet(nanos);
        });
        for (int i = 0; i < 20; i++) {
            cap.acquire(100_000);
        }
        // 2,000,000 bytes take 2 s at the cap; the first 50 ms are the burst an idle bucket allows
        assertThat(slept.get()).isBetween(1_850_000_000L, 1_950_000_000L);
    }

    @Test
    void noCapNeverWaitsAndMegabitsAreConvertedAsLinksAreSized() {
        ReceiveCap.NONE.acquire(Long.MAX_VALUE / 2);
        assertThat(ReceiveCap.of(100).bytesPerSecond()).isEqualTo(12_500_000);
        assertThat(ReceiveCap.of(0)).isSameAs(ReceiveCap.NONE);
    }

    @Test
    void theSettingIsChecked() {
        assertThat(ReceiverSettings.from(ReceiverSettings.SPEC.parse(Map.of("cap-mbps", "2.5"))).capMbps()).isEqualTo(2.5);
        assertThatThrownBy(() -> ReceiverSettings.SPEC.parse(Map.of("cap-mbps", "fast"))).hasMessageContaining("between 0.01 and 8000000");
    }
}
