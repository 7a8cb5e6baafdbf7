package io.mover.plugins.azurefiles.fileservice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

import org.junit.jupiter.api.Test;

/** The bandwidth limit's own account of how busy it was, which bench/azure-files.sh prints. */
class FaultsTest {
    @Test
    void theTimeTheBandwidthLimitSentNothingIsCountedAsIdle() throws InterruptedException {
        Faults faults = new Faults();
        assertThat(faults.bandwidthUse()).isEmpty();
        faults.bytesPerSecond = 100_000_000;   // 10 ms per megabyte
        faults.transfer(1_000_000);
        faults.transfer(1_000_000);            // right behind the first: no idle time between them
        Thread.sleep(100);
        faults.transfer(1_000_000);            // after the limit sat idle for about 100 ms
        assertThat(faults.bandwidthUse().get("bandwidth-idle-ms")).isBetween(80L, 1_000L);
        assertThat(faults.bandwidthUse().get("bandwidth-span-ms")).isGreaterThanOrEqualTo(faults.bandwidthUse().get("bandwidth-idle-ms") + 30);
    }

    /**
     * A copy starts its first bodies at once (one per worker): whichever of them reserved the limit first, the time
     * before it (from the double's start, while the client's JVM started) is not idle time of the copy.
     */
    @Test
    void transfersStartingTogetherCountNoIdleTimeBeforeTheFirst() throws Exception {
        List<Faults> doubles = new ArrayList<>();
        for (int round = 0; round < 1000; round++) {
            Faults faults = new Faults();
            faults.bytesPerSecond = 100_000_000;   // 10 us a kilobyte: the first bodies queue behind each other
            doubles.add(faults);
        }
        Thread.sleep(100);                         // the doubles wait for their client
        for (int round = 0; round < doubles.size(); round++) {
            Faults faults = doubles.get(round);
            int threads = 16;
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                workers.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                    }
                    catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    faults.transfer(1_000);
                }));
            }
            for (Thread worker : workers) {
                worker.join();
            }
            assertThat(faults.bandwidthUse().get("bandwidth-idle-ms")).as("round " + round).isLessThan(80L);
        }
    }
}
