package io.mover.core.codec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A taste's time is its thread's CPU time: waiting (for a core, or here asleep) does not count. */
class CpuClockTest {
    @Test
    void timeAsleepIsNotCounted() throws InterruptedException {
        CpuClock.Reading began = CpuClock.now();
        Thread.sleep(50);
        assertThat(CpuClock.since(began)).isLessThan(20_000_000L);
    }

    @Test
    void workOnAVirtualThreadIsCountedAndNeverMoreThanTheWallClock() throws InterruptedException {
        long[] measured = new long[2];
        Thread thread = Thread.ofVirtual().start(() -> {
            long wall = System.nanoTime();
            CpuClock.Reading began = CpuClock.now();
            long sum = 0;
            for (int i = 0; i < 20_000_000; i++) {
                sum += i ^ (sum >>> 3);
            }
            measured[0] = CpuClock.since(began) + (sum == 42 ? 1 : 0);
            measured[1] = System.nanoTime() - wall;
        });
        assertThat(thread.join(java.time.Duration.ofSeconds(10))).isTrue();
        assertThat(measured[0]).isPositive().isLessThanOrEqualTo(measured[1]);
    }
}
