package io.mover.jobstore.service;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.mover.core.engine.MemoryPlugin;
import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.core.engine.OverwritePolicy;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoredSpecTest {
    private final StoredSpec specs = new StoredSpec(PluginRegistry.of(List.of(new MemoryPlugin()), "test"),
            name -> name.equals("vault") ? Optional.of(Map.of("token", "s3cret")) : Optional.empty());

    @Test
    void optionsSurviveTheRoundTrip() {
        TransferOptions options = TransferOptions.builder().concurrency(3).includes(List.of("*.txt")).overwrite(OverwritePolicy.TRUE)
                .retries(5, Duration.ofMillis(7)).bandwidthCap(4096).codec("none").build();
        JobSpec spec = JobSpec.copy("mem://src", "mem://dst", options);
        String json = specs.encode(spec);

        assertThat(specs.decode(json, "j1")).isEqualTo(spec);
    }

    @Test
    void aConcurrencyNotSetStaysNotSetAndOneSetTo16StaysSet() {
        JobSpec unset = JobSpec.copy("mem://src", "mem://dst", TransferOptions.defaults());
        JobSpec sixteen = JobSpec.copy("mem://src", "mem://dst", TransferOptions.builder().concurrency(16).build());

        TransferOptions back = specs.decode(specs.encode(unset), "j1").options();
        assertThat(back.concurrencySet()).isFalse();
        assertThat(back.concurrency()).isEqualTo(TransferOptions.DEFAULT_CONCURRENCY);
        assertThat(specs.decode(specs.encode(sixteen), "j2").options().concurrencySet()).isTrue();
    }

    @Test
    void aJobStoredBeforeConcurrencyCouldBeUnsetKeepsItsSixteen() {
        // what a job's options looked like when every job stored its concurrency, 16 when the user gave none
        String old = specs.encode(JobSpec.copy("mem://src", "mem://dst", TransferOptions.builder().concurrency(16).build()));
        assertThat(old).doesNotContain("concurrencyNotSet").contains("\"concurrency\":16");

        TransferOptions back = specs.decode(old, "j1").options();
        assertThat(back.concurrencySet()).isTrue();
        assertThat(back.concurrency()).isEqualTo(16);
    }

    @Test
    void aConcurrencyChangedWhileTheJobRanIsStoredAsSet() {
        String stored = specs.encode(JobSpec.copy("mem://src", "mem://dst", TransferOptions.defaults()));

        TransferOptions back = specs.decode(StoredSpec.updated(stored, io.mover.core.service.JobUpdate.concurrency(40)), "j1").options();

        assertThat(back.concurrencySet()).isTrue();
        assertThat(back.concurrency()).isEqualTo(40);
    }

    @Test
    void inlineSecretsAreNotStoredAndTheJobCannotRunFromTheStoreAlone() {
        JobSpec spec = new JobSpec(JobKind.COPY, "mem://src", "mem://dst", Map.of("token", "s3cret"), Map.of(), TransferOptions.defaults(),
                Optional.empty(), Optional.empty());
        String json = specs.encode(spec);

        assertThat(json).doesNotContain("s3cret");
        assertThatThrownBy(() -> specs.decode(json, "j1")).isInstanceOf(MoverException.class)
                .hasMessageContaining("resubmit it or use a named credential");
    }

    @Test
    void aSasInALocationIsNotStored() {
        JobSpec spec = JobSpec.copy("mem://src?sv=2026-02-06&sig=s3cretsig", "mem://dst", TransferOptions.defaults());
        String json = specs.encode(spec);

        assertThat(json).doesNotContain("s3cretsig").contains("mem://src");
        assertThatThrownBy(() -> specs.decode(json, "j1")).isInstanceOf(MoverException.class);
    }

    @Test
    void secretsOfANamedCredentialComeBackFromIt() {
        JobSpec spec = new JobSpec(JobKind.COPY, "mem://src", "mem://dst", Map.of("token", "s3cret"), Map.of(), TransferOptions.defaults(),
                Optional.of("vault"), Optional.empty());
        String json = specs.encode(spec);

        assertThat(json).doesNotContain("s3cret");
        assertThat(specs.decode(json, "j1").sourceConfig()).containsEntry("token", "s3cret");
    }
}
