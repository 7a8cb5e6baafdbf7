package io.mover.plugins.azurefiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.OptionalLong;

import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.sas.AccountSasPermission;
import com.azure.storage.common.sas.AccountSasResourceType;
import com.azure.storage.common.sas.AccountSasService;
import com.azure.storage.common.sas.AccountSasSignatureValues;
import com.azure.storage.file.share.ShareServiceClientBuilder;

import io.mover.plugins.azurefiles.fileservice.FileServiceDouble;
import io.mover.spi.Attributes;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;
import io.mover.spi.SinkWriter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The sink's {@code FreeSpace}: the share's quota (Get Share Properties) less its usage (Get Share Stats). */
@Timeout(60)
final class FreeSpaceTest {
    private static final long GIB = 1L << 30;
    @TempDir
    Path scratch;

    private static String accountSas(String permissions, String resourceTypes) {
        var values = new AccountSasSignatureValues(OffsetDateTime.now(ZoneOffset.UTC).plusHours(1), AccountSasPermission.parse(permissions),
                new AccountSasService().setFileAccess(true), AccountSasResourceType.parse(resourceTypes));
        return new ShareServiceClientBuilder().endpoint("https://" + TestService.ACCOUNT + ".file.core.windows.net")
                .credential(new StorageSharedKeyCredential(TestService.ACCOUNT, TestService.KEY)).buildClient().generateAccountSas(values);
    }

    @Test
    void usableSpaceIsTheQuotaLessTheUsageAndDropsByWhatIsWritten() {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "quota2", 2);
        service.resetCounts();
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "quota2/below", Map.of(), TestService.context(scratch, "job1"))) {
            assertThat(sink.usableSpace(RelativePath.ROOT)).hasValue(2 * GIB);
            assertThat(sink.usableSpace(RelativePath.of("not/yet"))).as("the quota holds for every folder").hasValue(2 * GIB);
            assertThat(service.count("GET restype=share")).isEqualTo(2);
            assertThat(service.count("GET restype=share comp=stats")).isEqualTo(2);

            byte[] bytes = new byte[300_000];
            SinkWriter writer = sink.create(RelativePath.of("one.bin"), bytes.length,
                    new Entry(RelativePath.of("one.bin"), EntryType.FILE, bytes.length, Instant.now(), Attributes.NONE));
            writer.write(0, ByteBuffer.wrap(bytes));
            writer.commit();

            assertThat(sink.usableSpace(RelativePath.ROOT)).hasValue(2 * GIB - bytes.length);
        }
    }

    @Test
    void aShareFullerThanItsQuotaHasNoSpaceRatherThanANegativeFigure() {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "overfull", 1);
        service.seed(TestService.ACCOUNT, "overfull", "big.bin", GIB + 1, Instant.now());   // a quota lowered below the usage
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "overfull", Map.of(), TestService.context(scratch, "job1"))) {
            assertThat(sink.usableSpace(RelativePath.ROOT)).hasValue(0);
        }
    }

    @Test
    void aShareCreatedWithoutAQuotaHasTheServiceDefaultOf5TiB() {
        new ShareServiceClientBuilder().endpoint("http://127.0.0.1:" + TestService.get().port() + "/" + TestService.ACCOUNT)
                .credential(new StorageSharedKeyCredential(TestService.ACCOUNT, TestService.KEY))
                .addPolicy(new EndpointPath(java.net.URI.create(TestService.get().endpoint(TestService.ACCOUNT))))
                .buildClient().createShare("defaultquota");
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "defaultquota", Map.of(), TestService.context(scratch, "job1"))) {
            assertThat(sink.usableSpace(RelativePath.ROOT)).hasValue(5120 * GIB);
        }
    }

    @Test
    void aSasThatMayNotReadTheShareCannotTellAndThatIsNoError() {
        TestService.get().share(TestService.ACCOUNT, "writeonly", 1);
        String writeOnly = accountSas("wlc", "sco");   // may list and write, not read: Get Share Properties needs 'r'
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "writeonly", Map.of("sas", writeOnly), TestService.context(scratch, "job1"))) {
            assertThat(sink.usableSpace(RelativePath.ROOT)).isEqualTo(OptionalLong.empty());
        }
        String readAll = accountSas("rwlc", "sco");
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "writeonly", Map.of("sas", readAll), TestService.context(scratch, "job1"))) {
            assertThat(sink.usableSpace(RelativePath.ROOT)).as("the same share with 'r' granted").hasValue(GIB);
        }
    }
}
