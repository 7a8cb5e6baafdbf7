package io.mover.plugins.azurefiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import io.mover.plugins.azurefiles.fileservice.FileServiceDouble;
import io.mover.spi.Attributes;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;
import io.mover.spi.SinkWriter;
import io.mover.spi.SourceReader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The double's upload-benchmark mode (content not kept): uploads go through as before, and a read back is refused, not answered with zeros. */
@Timeout(60)
final class DiscardedContentTest {
    @TempDir
    Path scratch;

    @Test
    void anUploadSucceedsAndReadingItBackIsRefused() throws Exception {
        try (FileServiceDouble service = FileServiceDouble.start(scratch).account(TestService.ACCOUNT, TestService.KEY).share(TestService.ACCOUNT, "discard")
                .keepContent(false)) {
            Map<String, String> raw = new HashMap<>(Map.of("endpoint", service.endpoint(TestService.ACCOUNT), "account-key", TestService.KEY));
            var config = AzureFilesFactory.SPEC.parse(raw);
            var context = TestService.context(scratch, "discard");
            EndpointUri uri = EndpointUri.parse("azfiles://" + TestService.ACCOUNT + "/discard");
            Entry entry = new Entry(RelativePath.of("f.bin"), EntryType.FILE, 4, Instant.parse("2025-01-01T00:00:00Z"), Attributes.NONE);
            try (var sink = new AzureFilesFactory.Sinks("azfiles", name -> null).create(uri, config, context)) {
                SinkWriter writer = sink.create(entry.path(), 4, entry);
                writer.write(0, ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
                assertThat(writer.commit().size()).isEqualTo(4);
            }
            assertThat(service.count("PUT comp=range")).isEqualTo(1);
            try (var source = new AzureFilesFactory.Sources("azfiles", name -> null).create(uri, config, context);
                    SourceReader reader = source.open(entry.path())) {
                assertThat(source.stat(entry.path()).orElseThrow().size()).isEqualTo(4);
                assertThatThrownBy(() -> reader.read(0, ByteBuffer.allocate(4))).isInstanceOf(io.mover.spi.MoverException.class).hasMessageContaining("could not read");
            }
        }
    }
}
