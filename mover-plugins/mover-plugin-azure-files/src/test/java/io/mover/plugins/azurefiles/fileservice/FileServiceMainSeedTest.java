package io.mover.plugins.azurefiles.fileservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Base64;

import com.azure.core.util.DateTimeRfc1123;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code FileServiceMain --seed}: the tree bench/azure-files.sh's no-change sync relies on, made without a request. */
final class FileServiceMainSeedTest {
    private static final String KEY = Base64.getEncoder().encodeToString("seed-test-key-0123456789".getBytes());

    @TempDir
    Path scratch;

    @Test
    void seedsFilesPerFolderWithTheSameTimeAndCountsNoRequest() throws Exception {
        try (FileServiceDouble service = FileServiceDouble.start(scratch).account("acct", KEY).share("acct", "left").share("acct", "right")) {
            FileServiceMain.seed(service, "acct/left:250:100");
            FileServiceMain.seed(service, "acct/right:250:100");

            assertThat(service.names("acct", "left", "")).hasSize(250 + 3).contains("d0", "d2", "d0/f0", "d0/f99", "d1/f100", "d2/f249");
            assertThat(service.names("acct", "right", "")).isEqualTo(service.names("acct", "left", ""));
            assertThat(service.smb("acct", "left", "d2/f249")).containsEntry("lastWriteTime", "2025-01-01T00:00:00Z");
            assertThat(service.smb("acct", "right", "d1")).containsEntry("lastWriteTime", "2025-01-01T00:00:00Z");
            assertThat(service.counts()).isEmpty();
        }
    }

    @Test
    void seededTimesReachTheSdkAsTheServiceWritesThem() {
        // the 1st of a month: the JDK's RFC_1123_DATE_TIME wrote "Wed, 1 Jan 2025", which the SDK refuses
        String lastModified = FileServiceDouble.httpDate(FileServiceMain.SEED_TIME);

        assertThat(lastModified).isEqualTo("Wed, 01 Jan 2025 00:00:00 GMT");
        assertThat(new DateTimeRfc1123(lastModified).getDateTime().toInstant()).isEqualTo(FileServiceMain.SEED_TIME);
    }

    @Test
    void refusesASpecWithoutAccountOrFolderSize() throws Exception {
        try (FileServiceDouble service = FileServiceDouble.start(scratch).account("acct", KEY).share("acct", "s")) {
            assertThatThrownBy(() -> FileServiceMain.seed(service, "s:10:5")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> FileServiceMain.seed(service, "acct/s:10:0")).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
