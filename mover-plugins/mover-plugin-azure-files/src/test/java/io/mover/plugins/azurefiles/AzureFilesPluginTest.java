package io.mover.plugins.azurefiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.sas.AccountSasPermission;
import com.azure.storage.common.sas.AccountSasResourceType;
import com.azure.storage.common.sas.AccountSasService;
import com.azure.storage.common.sas.AccountSasSignatureValues;

import io.mover.plugins.azurefiles.fileservice.FileServiceDouble;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.SinkWriter;
import io.mover.spi.SourceReader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The plugin's own behaviour through the real SDK against the double: SAS, errors, listing cost, server-side copy, throttling. */
@Timeout(120)
final class AzureFilesPluginTest {
    private static final Instant MTIME = Instant.parse("2024-05-06T07:08:09.1234567Z");
    @TempDir
    Path scratch;

    private PluginContext context() {
        return TestService.context(scratch, "job1");
    }

    private static String sas(String account, String key, String permissions, OffsetDateTime expiry) {
        var values = new AccountSasSignatureValues(expiry, AccountSasPermission.parse(permissions), new AccountSasService().setFileAccess(true),
                AccountSasResourceType.parse("sco"));
        return new com.azure.storage.file.share.ShareServiceClientBuilder().endpoint("https://" + account + ".file.core.windows.net")
                .credential(new StorageSharedKeyCredential(account, key)).buildClient().generateAccountSas(values);
    }

    private static Entry write(AzureFilesSink sink, String path, byte[] bytes) {
        SinkWriter writer = sink.create(RelativePath.of(path), bytes.length, new Entry(RelativePath.of(path), io.mover.spi.EntryType.FILE, bytes.length, MTIME,
                io.mover.spi.Attributes.NONE));
        writer.write(0, ByteBuffer.wrap(bytes));
        return writer.commit();
    }

    @Test
    void writesInRangesOfAtMost4MiBAndReadsBackThroughASas() {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "ranges");
        byte[] bytes = new byte[9 << 20];
        new Random(7).nextBytes(bytes);
        String sas = sas(TestService.ACCOUNT, TestService.KEY, "rwdlc", OffsetDateTime.now(ZoneOffset.UTC).plusHours(1));
        service.resetCounts();
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "ranges", Map.of("sas", sas), context())) {
            Entry committed = write(sink, "big.bin", bytes);
            assertThat(committed.lastModified()).isEqualTo(MTIME);
        }
        assertThat(service.count("PUT comp=range")).isEqualTo(3);
        try (AzureFilesSource source = TestService.source(TestService.ACCOUNT, "ranges", Map.of("sas", sas), context());
                SourceReader reader = source.open(RelativePath.of("big.bin"))) {
            ByteBuffer back = ByteBuffer.allocate(bytes.length);
            while (back.hasRemaining()) {
                ByteBuffer slice = back.slice(back.position(), Math.min(1 << 20, back.remaining()));
                back.position(back.position() + reader.read(back.position(), slice));
            }
            assertThat(back.array()).isEqualTo(bytes);
            assertThat(source.stat(RelativePath.of("big.bin")).orElseThrow().lastModified()).isEqualTo(MTIME);
        }
    }

    @Test
    void aListingCarriesTimestampsSoACompareMakesNoPerFileCall() {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "listing");
        for (int i = 0; i < 300; i++) {
            service.seed(TestService.ACCOUNT, "listing", "d" + (i % 3) + "/f" + i, i, MTIME);
        }
        service.resetCounts();
        try (AzureFilesSource source = TestService.source(TestService.ACCOUNT, "listing", Map.of(), context())) {
            List<Entry> all;
            try (Stream<Entry> entries = source.listRecursively(RelativePath.ROOT)) {
                all = entries.toList();
            }
            assertThat(all).hasSize(303);
            assertThat(all).filteredOn(Entry::isFile).allSatisfy(entry -> {
                assertThat(entry.lastModified()).isEqualTo(MTIME);
                assertThat(entry.attributes().extended()).containsKeys(AzureShare.ETAG, AzureShare.ATTRIBUTES, AzureShare.PERMISSION_KEY);
            });
            // one listing per directory, opening included (its check is the root's listing): no permission, no property call
            assertThat(service.counts()).containsOnlyKeys("all", "GET restype=directory comp=list");
            assertThat(service.count("all")).isEqualTo(4);
        }
    }

    @Test
    void anExpiredSasAndAMissingPermissionAreNamed() {
        TestService.get().share(TestService.ACCOUNT, "perms");
        String expired = sas(TestService.ACCOUNT, TestService.KEY, "rwdlc", OffsetDateTime.now(ZoneOffset.UTC).minusMinutes(5));
        assertThatThrownBy(() -> TestService.sink(TestService.ACCOUNT, "perms", Map.of("sas", expired), context()))
                .isInstanceOf(MoverException.class).hasMessageContaining("SAS has expired").extracting(e -> ((MoverException) e).code())
                .isEqualTo(ErrorCode.AUTHENTICATION_FAILED);
        String readOnly = sas(TestService.ACCOUNT, TestService.KEY, "rl", OffsetDateTime.now(ZoneOffset.UTC).plusHours(1));
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "perms", Map.of("sas", readOnly), context())) {
            assertThatThrownBy(() -> write(sink, "x.txt", new byte[10])).isInstanceOf(MoverException.class)
                    .hasMessageContaining("'c' (create) permission").hasMessageNotContaining("sig=");
        }
    }

    @Test
    void aMissingShareAWrongKeyAForbiddenNameAndAHugeFileAreRefused() {
        TestService.get().share(TestService.ACCOUNT, "refusals");
        assertThatThrownBy(() -> TestService.sink(TestService.ACCOUNT, "nosuchshare", Map.of(), context()))
                .isInstanceOf(MoverException.class).hasMessageContaining("share does not exist");
        assertThatThrownBy(() -> TestService.sink(TestService.ACCOUNT, "refusals", Map.of("account-key", TestService.OTHER_KEY), context()))
                .isInstanceOf(MoverException.class).extracting(e -> ((MoverException) e).code()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED);
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "refusals", Map.of(), context())) {
            assertThatThrownBy(() -> write(sink, "what?.txt", new byte[1])).isInstanceOf(MoverException.class)
                    .extracting(e -> ((MoverException) e).code()).isEqualTo(ErrorCode.INVALID_PATH);
            Entry huge = Entry.file(RelativePath.of("huge"), (4L << 40) + 1, MTIME);
            assertThatThrownBy(() -> sink.create(RelativePath.of("huge"), huge.size(), huge)).hasMessageContaining("4 TiB");
            write(sink, "fine.txt", new byte[3]);
            assertThat(TestService.get().names(TestService.ACCOUNT, "refusals", "")).containsExactly("fine.txt");
        }
    }

    @Test
    void shareToShareAcrossAccountsIsCopiedByTheServiceWithSmbInfo() throws Exception {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "from").share(TestService.OTHER, "into");
        byte[] bytes = "copied by the service".getBytes();
        try (AzureFilesSink origin = TestService.sink(TestService.ACCOUNT, "from", Map.of(), context())) {
            write(origin, "doc.txt", bytes);
        }
        try (AzureFilesSource source = TestService.source(TestService.ACCOUNT, "from", Map.of(), context());
                AzureFilesSink target = TestService.sink(TestService.OTHER, "into", Map.of("preserve-smb-info", "true", "preserve-permissions", "true"), context())) {
            Entry entry = source.stat(RelativePath.of("doc.txt")).orElseThrow();
            service.resetCounts();
            assertThat(target.copyFrom(source, entry, RelativePath.of("doc.txt"))).isPresent();
            assertThat(service.counts()).doesNotContainKey("PUT comp=range").containsKey("PUT copy");
            assertThat(service.read(TestService.OTHER, "into", "doc.txt")).isEqualTo(bytes);
            Entry copied = target.stat(RelativePath.of("doc.txt")).orElseThrow();
            assertThat(copied.lastModified()).isEqualTo(MTIME);
            assertThat(copied.attributes().creationTime()).isEqualTo(entry.attributes().creationTime());
        }
    }

    @Test
    void throttlingIsWaitedOutAndCounted() throws Exception {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "busy");
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "busy", Map.of(), context())) {
            service.resetCounts();
            service.faults().operationsPerSecond = 20;
            service.faults().retryAfterSeconds = 0;
            byte[][] contents = new byte[15][];
            for (int i = 0; i < 15; i++) {
                contents[i] = new byte[64 << 10];
                new Random(i).nextBytes(contents[i]);
                write(sink, "f" + i, contents[i]);
            }
            assertThat(sink.share.throttle.throttledCount()).isPositive();
            assertThat(TestService.get().names(TestService.ACCOUNT, "busy", "")).hasSize(15);
            assertThat(service.count("PUT comp=range")).as("Put Range answered 503 and sent again").isGreaterThan(15);
            for (int i = 0; i < 15; i++) {   // a Put Range sent again after a 503 sent the same bytes
                assertThat(service.read(TestService.ACCOUNT, "busy", "f" + i)).isEqualTo(contents[i]);
            }
        }
        finally {
            service.faults().operationsPerSecond = 0;
            service.faults().retryAfterSeconds = -1;
        }
    }

    @Test
    void reservedCharactersInPathsRenameFromBesideTheTarget() throws Exception {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "percent").share(TestService.OTHER, "percentcopy");
        String[] paths = {"100%/f%.txt", "a%41b/c%2Fd %25/x+y#z;1.txt", "plain/%%.bin"};
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "percent", Map.of(), context())) {
            for (String path : paths) {
                RelativePath target = RelativePath.of(path);
                sink.mkdirs(target.parent());
                byte[] bytes = path.getBytes();
                AzureWriter writer = (AzureWriter) sink.create(target, bytes.length, new Entry(target, io.mover.spi.EntryType.FILE, bytes.length, MTIME,
                        io.mover.spi.Attributes.NONE));
                assertThat(writer.temporary().parent()).as("the temporary sits beside " + path).isEqualTo(target.parent());
                writer.write(0, ByteBuffer.wrap(bytes));
                writer.commit();
                assertThat(service.read(TestService.ACCOUNT, "percent", path)).isEqualTo(bytes);
            }
        }
        try (AzureFilesSource source = TestService.source(TestService.ACCOUNT, "percent", Map.of(), context());
                AzureFilesSink target = TestService.sink(TestService.OTHER, "percentcopy", Map.of(), context())) {
            for (String path : paths) {
                target.mkdirs(RelativePath.of(path).parent());
                assertThat(target.copyFrom(source, source.stat(RelativePath.of(path)).orElseThrow(), RelativePath.of(path))).isPresent();
                assertThat(service.read(TestService.OTHER, "percentcopy", path)).isEqualTo(path.getBytes());
            }
        }
        assertThat(service.names(TestService.ACCOUNT, "percent", "")).noneMatch(name -> name.contains(".partial."));
        assertThat(service.names(TestService.OTHER, "percentcopy", "")).noneMatch(name -> name.contains(".partial."));
    }

    @Test
    void directoriesKeepTheirSmbInfoAndPermissionShareToShareWhenAsked() {
        String sddl = "O:BAG:SYD:(A;;FA;;;BA)(A;OICI;0x1200a9;;;AU)";
        Instant created = Instant.parse("2020-01-02T03:04:05.1234567Z");
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "dirsfrom").share(TestService.OTHER, "dirsinto")
                .share(TestService.OTHER, "dirsplain");
        service.mkdir(TestService.ACCOUNT, "dirsfrom", "secret/inner", MTIME);
        service.smb(TestService.ACCOUNT, "dirsfrom", "secret", "Hidden", created, sddl);
        try (AzureFilesSource source = TestService.source(TestService.ACCOUNT, "dirsfrom", Map.of(), context());
                AzureFilesSink keeping = TestService.sink(TestService.OTHER, "dirsinto", Map.of("preserve-smb-info", "true", "preserve-permissions", "true"), context());
                AzureFilesSink plain = TestService.sink(TestService.OTHER, "dirsplain", Map.of(), context())) {
            Entry secret = source.list(RelativePath.ROOT).filter(Entry::isDirectory).findFirst().orElseThrow();
            assertThat(secret.attributes().extended()).containsKey(Permissions.ORIGIN).doesNotContainKey(Permissions.PERMISSION);
            service.resetCounts();
            for (AzureFilesSink sink : List.of(keeping, plain)) {
                sink.mkdirs(RelativePath.of("secret/inner"));
                sink.setAttributes(RelativePath.of("secret"), secret);
            }
            // the descriptor is read when a sink that keeps permissions writes the directory, and only then
            assertThat(service.count("GET restype=share comp=filepermission")).isEqualTo(1);
            service.resetCounts();
            keeping.setAttributes(RelativePath.of("secret"), secret);
            assertThat(service.counts()).as("the descriptor and its key cached; no stat before Set Directory Properties")
                    .containsOnlyKeys("all", "PUT restype=directory comp=properties").containsEntry("all", 1L);
        }
        Map<String, String> kept = service.smb(TestService.OTHER, "dirsinto", "secret");
        assertThat(kept).containsEntry("permission", sddl).containsEntry("attributes", "Hidden | Directory")
                .containsEntry("creationTime", created.toString()).containsEntry("lastWriteTime", MTIME.toString());
        Map<String, String> plain = service.smb(TestService.OTHER, "dirsplain", "secret");
        assertThat(plain.get("permission")).isNotEqualTo(sddl);
        assertThat(plain).containsEntry("attributes", "Directory").containsEntry("lastWriteTime", MTIME.toString());
    }
}
