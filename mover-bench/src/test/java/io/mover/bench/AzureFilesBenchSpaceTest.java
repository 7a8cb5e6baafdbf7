package io.mover.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import io.mover.plugins.azurefiles.fileservice.FileServiceDouble;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Transfer mode against an Azure Files share (the File service double): the share's quota less its usage is checked first. */
@Timeout(120)
class AzureFilesBenchSpaceTest {
    private static final String ACCOUNT = "benchaccount";
    private static final String KEY = Base64.getEncoder().encodeToString("bench-account-key-0123456789abcd".getBytes(StandardCharsets.UTF_8));
    @TempDir
    Path temp;
    private FileServiceDouble service;

    @BeforeEach
    void start() throws IOException {
        service = FileServiceDouble.start(temp).account(ACCOUNT, KEY).share(ACCOUNT, "small", 1);
    }

    @AfterEach
    void stop() {
        service.close();
    }

    private TransferSettings settings(long files, long size) {
        return new TransferSettings("azfiles://" + ACCOUNT + "/small", Map.of("endpoint", service.endpoint(ACCOUNT), "account-key", KEY), files, size,
                "zeros", List.of(1), 1 << 20, "none", false, "mover-bench");
    }

    @Test
    void moreThanTheShareQuotaLeavesIsRefusedBeforeWriting() {
        service.seed(ACCOUNT, "small", "theirs.bin", 100 << 20, java.time.Instant.now());   // 924 MiB of the 1 GiB quota left
        service.resetCounts();

        assertThatThrownBy(() -> TransferBenchTest.run(temp, settings(500, 2 << 20))).isInstanceOfSatisfying(MoverException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.NO_SPACE);
            assertThat(e.getMessage()).contains("azfiles://" + ACCOUNT + "/small", "free; nothing was written", "--files or --size");
        });
        assertThat(service.names(ACCOUNT, "small", "")).containsExactly("theirs.bin");
        assertThat(service.count("PUT")).as("no Create File, no Create Directory").isZero();
        assertThat(service.count("PUT restype=directory")).isZero();
        assertThat(service.count("GET restype=share comp=stats")).isEqualTo(1);
    }

    @Test
    void aBenchThatFitsNotesBothFiguresAndRuns() {
        BenchReport report = TransferBenchTest.run(temp, settings(4, 64 << 10));

        assertThat(report.notes()).anyMatch(note -> note.startsWith("free space was checked") && note.contains("was free"));
        assertThat(report.sweep()).singleElement().satisfies(point -> assertThat(point.write().files()).isEqualTo(4));
    }
}
