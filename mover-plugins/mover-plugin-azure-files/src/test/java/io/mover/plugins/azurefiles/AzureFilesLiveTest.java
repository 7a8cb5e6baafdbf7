package io.mover.plugins.azurefiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.UUID;

import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.PluginConfig;
import io.mover.spi.RelativePath;
import io.mover.spi.SinkWriter;
import io.mover.spi.SourceReader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a real storage account, only when one is given: {@code MOVER_AZURE_LIVE_URL} (an existing share, such as
 * {@code azfiles://ACCOUNT/SHARE} or an https URL with a SAS) and credentials in {@code AZURE_STORAGE_KEY},
 * {@code AZURE_STORAGE_SAS_TOKEN} or {@code AZURE_STORAGE_CONNECTION_STRING}. Skipped otherwise. Works in a new
 * directory and removes it.
 */
@EnabledIfEnvironmentVariable(named = "MOVER_AZURE_LIVE_URL", matches = ".+")
@Timeout(300)
final class AzureFilesLiveTest {
    @TempDir
    Path scratch;

    @Test
    void writesListsReadsRenamesAndDeletesOnARealShare() {
        EndpointUri uri = EndpointUri.parse(System.getenv("MOVER_AZURE_LIVE_URL"));
        var context = TestService.context(scratch, "live");
        PluginConfig config = AzureFilesFactory.SPEC.parse(java.util.Map.of());
        RelativePath dir = RelativePath.of("mover-live-" + UUID.randomUUID());
        RelativePath file = dir.resolve("hello.txt");
        byte[] bytes = ("hello from mover at " + Instant.now()).getBytes(StandardCharsets.UTF_8);
        Instant mtime = Instant.parse("2024-01-02T03:04:05.1234567Z");
        try (AzureFilesSink sink = (AzureFilesSink) new AzureFilesFactory.Sinks(uri.scheme(), System::getenv).create(uri, config, context);
                AzureFilesSource source = (AzureFilesSource) new AzureFilesFactory.Sources(uri.scheme(), System::getenv).create(uri, config, context)) {
            try {
                sink.mkdirs(dir);
                SinkWriter writer = sink.create(file, bytes.length, Entry.file(file, bytes.length, mtime));
                writer.write(0, ByteBuffer.wrap(bytes));
                writer.commit();
                assertThat(source.list(dir).map(Entry::path)).containsExactly(file);
                assertThat(source.stat(file).orElseThrow().lastModified()).isEqualTo(mtime);
                try (SourceReader reader = source.open(file)) {
                    ByteBuffer back = ByteBuffer.allocate(bytes.length);
                    reader.read(0, back);
                    assertThat(back.array()).isEqualTo(bytes);
                }
            }
            finally {
                sink.delete(dir, true);
            }
        }
    }
}
