package io.mover.jobstore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One mover per data directory: a second one, in another process or this one, fails at once and says why. */
class DataDirLockTest {
    @TempDir
    Path dataDir;

    @Test
    void aSecondProcessFailsFastNamingTheHolder() throws Exception {
        long pid = ProcessHandle.current().pid();
        try (JobDatabase database = JobStores.open(dataDir)) {
            assertThat(database.dialect()).isEqualTo(Dialect.H2);
            // the pid is read by the other process: here, opening and closing mover.lock would drop our POSIX lock

            Probe refused = probe();
            assertThat(refused.exitCode).isEqualTo(3);
            assertThat(refused.output).isEqualTo("INVALID_ARGUMENT: data directory " + dataDir.toAbsolutePath().normalize()
                    + " is in use by another mover (pid " + pid + "): stop it, or choose another --data-dir");
        }
        Probe opened = probe(); // closed here: the lock and the database are free again
        assertThat(opened.exitCode).as(opened.output).isZero();
        assertThat(opened.output).isEqualTo("opened H2");
        assertThat(Files.readString(dataDir.resolve(DataDirLock.FILE_NAME)).strip()).isNotEqualTo(Long.toString(pid));
    }

    @Test
    void aSecondOpenInThisProcessFailsToo() {
        try (JobDatabase first = JobStores.open(dataDir)) {
            assertThat(first.dialect()).isEqualTo(Dialect.H2);
            assertThatThrownBy(() -> JobStores.open(dataDir))
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessageContaining("is in use by another mover (pid " + ProcessHandle.current().pid() + ")");
        }
        try (JobDatabase again = JobStores.open(dataDir)) {
            assertThat(again.store().list(java.util.Optional.empty(), 0, 1)).isEmpty();
        }
    }

    private Probe probe() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"), LockProbe.class.getName(),
                dataDir.toString()).redirectErrorStream(true).start();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the probe JVM did not finish within 30 s");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return new Probe(process.exitValue(), output.lines().reduce((a, b) -> b).orElse(""));
    }

    private record Probe(int exitCode, String output) {
    }
}
