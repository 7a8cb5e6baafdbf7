package io.mover.plugins.azurefiles.fileservice;

import static org.assertj.core.api.Assertions.assertThat;

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
}
