package io.mover.jobstore;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.mover.core.service.JobId;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A job's plugin counters (issue 6: migration V1_7), summed over units and the driver; run on each database. */
abstract class PluginCountersContract extends StoreFixture {
    @Test
    void countersAddUpPerJobAndName() {
        JobId job = newJob();
        JobId other = newJob();
        assertThat(store.pluginCounters(job)).isEmpty();

        store.addPluginCounters(job, Map.of("destination.azure-files.requests", 30L, "destination.azure-files.throttled-503", 0L));
        store.addPluginCounters(job, Map.of("destination.azure-files.requests", 12L, "destination.azure-files.throttled-503", 2L,
                "source.nfs.retransmissions", 1L));
        store.addPluginCounters(other, Map.of("destination.azure-files.requests", 5L));
        store.addPluginCounters(other, Map.of());

        assertThat(store.pluginCounters(job)).containsExactly(Map.entry("destination.azure-files.requests", 42L),
                Map.entry("destination.azure-files.throttled-503", 2L), Map.entry("source.nfs.retransmissions", 1L));
        assertThat(store.pluginCounters(other)).containsExactly(Map.entry("destination.azure-files.requests", 5L));
    }

    @Test
    void anUnknownJobIsNotFound() {
        JobId unknown = JobId.random();
        assertThatThrownBy(() -> store.addPluginCounters(unknown, Map.of("destination.azure-files.requests", 1L)))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }
}
