package io.mover.plugins.azurefiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.mover.plugins.azurefiles.fileservice.FileServiceDouble;
import io.mover.spi.Entry;
import io.mover.spi.MoverException;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a no-change compare costs, counted by the double from the moment both ends open: listings only (one per
 * directory and page per side, the open's check being the root's first page), no fixed request per job, no
 * permission read; and the check still refuses a missing share in one line.
 */
@Timeout(120)
final class NoChangeCompareRequestsTest {
    private static final String LIST = "GET restype=directory comp=list";
    private static final Instant MTIME = Instant.parse("2025-01-01T00:00:00Z");
    @TempDir
    Path scratch;

    private PluginContext context() {
        return TestService.context(scratch, "compare");
    }

    private static List<Entry> all(Stream<Entry> entries) {
        try (entries) {
            return entries.toList();
        }
    }

    private static FileServiceDouble twins(String left, String right, String prefix, int files, int perDirectory) {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, left).share(TestService.OTHER, right);
        for (int i = 0; i < files; i++) {
            String path = prefix + "d" + (i / perDirectory) + "/f" + i;
            service.seed(TestService.ACCOUNT, left, path, 100, MTIME);
            service.seed(TestService.OTHER, right, path, 100, MTIME);
        }
        return service;
    }

    @Test
    void aNoChangeCompareShareToShareMakesListingsOnly() {
        FileServiceDouble service = twins("cmpleft", "cmpright", "", 250, 50);
        service.resetCounts();
        try (AzureFilesSource source = TestService.source(TestService.ACCOUNT, "cmpleft", Map.of(), context());
                AzureFilesSink sink = TestService.sink(TestService.OTHER, "cmpright", Map.of("preserve-smb-info", "true", "preserve-permissions", "true"), context())) {
            assertThat(all(source.listRecursively(RelativePath.ROOT))).hasSize(255);
            assertThat(all(sink.listRecursively(RelativePath.ROOT))).hasSize(255);
        }
        // 6 directories (the root and 5) per side: a fixed request per job (root check, Get Permission) would show here
        assertThat(service.counts()).containsOnlyKeys("all", LIST);
        assertThat(service.count("all")).isEqualTo(12);
    }

    @Test
    void belowTheShareRootTheCheckIsTheListingAndTheRootIsNotCreatedAgain() {
        FileServiceDouble service = twins("subleft", "subright", "top/", 100, 50);
        service.resetCounts();
        try (AzureFilesSource source = TestService.source(TestService.ACCOUNT, "subleft/top", Map.of(), context());
                AzureFilesSink sink = TestService.sink(TestService.OTHER, "subright/top", Map.of(), context())) {
            // directory by directory, as a sync's planner lists
            for (var end : List.<java.util.function.Function<RelativePath, Stream<Entry>>>of(source::list, sink::list)) {
                assertThat(all(end.apply(RelativePath.ROOT))).hasSize(2);
                assertThat(all(end.apply(RelativePath.of("d0")))).hasSize(50);
                assertThat(all(end.apply(RelativePath.of("d1")))).hasSize(50);
            }
            assertThat(service.counts()).containsOnlyKeys("all", LIST);
            assertThat(service.count("all")).isEqualTo(6);
            // the engine's stat of the root: the check found a directory, so one Get Directory Properties
            service.resetCounts();
            assertThat(source.stat(RelativePath.ROOT).orElseThrow().isDirectory()).isTrue();
            assertThat(service.count("all")).isEqualTo(1);
            // the check's page serves the first listing of the root only
            service.resetCounts();
            assertThat(all(source.list(RelativePath.ROOT))).hasSize(2);
            assertThat(service.count(LIST)).isEqualTo(1);
        }
    }

    @Test
    void aWriteThroughTheShareDropsTheChecksPage() {
        TestService.get().share(TestService.ACCOUNT, "written");
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "written", Map.of(), context())) {
            sink.mkdirs(RelativePath.of("new"));
            assertThat(all(sink.list(RelativePath.ROOT))).extracting(Entry::path).containsExactly(RelativePath.of("new"));
        }
    }

    @Test
    void aRootOfSeveralPagesGoesOnFromTheChecksPage() {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "wide");
        for (int i = 0; i < 5_001; i++) {
            service.seed(TestService.ACCOUNT, "wide", "f" + i, 1, MTIME);
        }
        service.resetCounts();
        try (AzureFilesSource source = TestService.source(TestService.ACCOUNT, "wide", Map.of(), context())) {
            List<Entry> entries = all(source.list(RelativePath.ROOT));
            assertThat(entries).hasSize(5_001);
            assertThat(entries.stream().map(Entry::path).distinct()).hasSize(5_001);
        }
        assertThat(service.count(LIST)).isEqualTo(2);
        assertThat(service.count("all")).isEqualTo(2);
    }

    @Test
    void theCheckStillRefusesAMissingShareInOneLineAndLetsAMissingRootBe() {
        TestService.get().share(TestService.ACCOUNT, "present");
        for (String location : List.of("nosuchshare", "nosuchshare/below")) {
            assertThatThrownBy(() -> TestService.source(TestService.ACCOUNT, location, Map.of(), context())).isInstanceOf(MoverException.class)
                    .hasMessageContaining("the share does not exist; create it or correct the share name").hasMessageNotContaining("\n");
            assertThatThrownBy(() -> TestService.sink(TestService.ACCOUNT, location, Map.of(), context())).isInstanceOf(MoverException.class)
                    .hasMessageContaining("the share does not exist; create it or correct the share name").hasMessageNotContaining("\n");
        }
        try (AzureFilesSource source = TestService.source(TestService.ACCOUNT, "present/missing", Map.of(), context())) {
            assertThat(source.stat(RelativePath.ROOT)).isEmpty();
        }
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "present/made/here", Map.of(), context())) {
            assertThat(TestService.get().names(TestService.ACCOUNT, "present", "")).contains("made/here");
            assertThat(all(sink.list(RelativePath.ROOT))).isEmpty();
        }
    }
}
