package io.mover.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.core.engine.JobSpec;
import io.mover.core.engine.JobState;
import io.mover.core.engine.JobSummary;
import io.mover.core.engine.TransferOptions;
import io.mover.core.plugin.LoadedPlugins;
import io.mover.core.plugin.PluginDescriptor;
import io.mover.core.plugin.PluginLoader;
import io.mover.core.service.EmbeddedJobService;
import io.mover.core.service.JobView;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example third-party plugin, built by its own module and dropped into a {@code plugins/} directory,
 * is loaded in its own class loader and receives a real copy from the local plugin.
 */
@Timeout(120)
class ExamplePluginEndToEndTest {
    private static final Path PLUGINS = Path.of(System.getProperty("mover.test.pluginsDir", "target/plugins"));

    @Test
    void aSinkFromAPluginDirectoryReceivesATreeWithChecksums(@TempDir Path dir) throws Exception {
        LoadedPlugins loaded = PluginLoader.load(List.of(PLUGINS));
        assertThat(loaded.failures()).isEmpty();
        assertThat(loaded.registry().descriptors()).filteredOn(d -> d.name().equals("example-sink")).singleElement()
                .extracting(PluginDescriptor::location).asString().contains("example-sink");

        Path source = Trees.sample(dir.resolve("src"));
        Path store = dir.resolve("store");
        try (EmbeddedJobService jobs = EmbeddedJobService.create(loaded.registry(), dir.resolve("scratch"))) {
            JobView job = jobs.submit(JobSpec.copy(source.toString(), "example://" + store,
                    TransferOptions.builder().largeFiles(4 << 20, 2 << 20).build()));
            JobSummary summary = jobs.await(job.id(), Duration.ofSeconds(90)).orElseThrow();
            assertThat(summary.state()).as(summary.toString()).isEqualTo(JobState.SUCCEEDED);
        }

        Map<String, String> expected = Trees.fingerprint(source);
        assertThat(Trees.fingerprint(store, p -> p.startsWith(".checksums"))).isEqualTo(expected);
        expected.forEach((path, hash) -> {
            if (!hash.equals("dir")) {
                Path sidecar = store.resolve(".checksums").resolve(path + ".sha256");
                assertThat(sidecar).as("sidecar of " + path).exists();
                try {
                    assertThat(Files.readString(sidecar).trim()).isEqualTo(hash);
                }
                catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });
    }
}
