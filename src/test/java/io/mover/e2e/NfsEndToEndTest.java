package io.mover.e2e;

import io.mover.plugins.nfs.Ganesha;
import io.mover.plugins.nfs.GaneshaExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mover copy} between local disk and NFS, and NFS to NFS, through a real nfs-ganesha on loopback,
 * every file's SHA-256 compared; a ganesha restart in the middle of a copy; the one-line errors of an
 * unreachable server and a refused mount.
 */
@Timeout(300)
@ExtendWith(GaneshaExtension.class)
class NfsEndToEndTest {
    @TempDir
    Path dir;

    private record Run(int exit, String err) {
    }

    private Process start(String... args) throws IOException {
        return CliProcesses.start(dir, args);
    }

    private Run finish(Process process) throws Exception {
        assertThat(process.waitFor(240, TimeUnit.SECONDS)).as("mover finished").isTrue();
        return new Run(process.exitValue(), Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
    }

    private Run mover(String... args) throws Exception {
        return finish(start(args));
    }

    private static String mountPort(Ganesha ganesha) {
        return "mount-port=" + ganesha.mountPort();
    }

    @Test
    void copiesLocalToNfsToLocalAndNfsToNfsByteForByte(Ganesha ganesha) throws Exception {
        Path source = Trees.sample(dir.resolve("src"));
        String base = ganesha.uri("e2e-copy").toString();

        Run toNfs = mover("copy", source.toString(), base + "/one", "--dest-config", mountPort(ganesha), "--dest-config", "connections=4");
        assertThat(toNfs.exit()).as(toNfs.err()).isZero();
        assertThat(Trees.fingerprint(ganesha.export().resolve("e2e-copy/one"))).isEqualTo(Trees.fingerprint(source));
        assertThat(Files.getLastModifiedTime(ganesha.export().resolve("e2e-copy/one/a/large.bin")))
                .isEqualTo(Files.getLastModifiedTime(source.resolve("a/large.bin")));

        Run nfsToNfs = mover("copy", base + "/one", base + "/two", "--source-config", mountPort(ganesha), "--dest-config", mountPort(ganesha));
        assertThat(nfsToNfs.exit()).as(nfsToNfs.err()).isZero();
        assertThat(Trees.fingerprint(ganesha.export().resolve("e2e-copy/two"))).isEqualTo(Trees.fingerprint(source));

        Path back = dir.resolve("back");
        Run toLocal = mover("copy", base + "/two", back.toString(), "--source-config", mountPort(ganesha), "--source-config", "read-size=256k");
        assertThat(toLocal.exit()).as(toLocal.err()).isZero();
        assertThat(Trees.fingerprint(back)).isEqualTo(Trees.fingerprint(source));
        assertThat(Files.getLastModifiedTime(back.resolve("a/b/c/deep.bin"))).isEqualTo(Files.getLastModifiedTime(source.resolve("a/b/c/deep.bin")));
    }

    @Test
    void aGaneshaRestartMidCopyIsRiddenOutByReconnecting(Ganesha ganesha) throws Exception {
        Path source = Files.createDirectories(dir.resolve("big"));
        Random random = new Random(3);
        for (int i = 0; i < 12; i++) {
            byte[] data = new byte[6 << 20];
            random.nextBytes(data);
            Files.write(source.resolve("f" + i + ".bin"), data);
        }
        Path landed = ganesha.export().resolve("e2e-restart");
        Process copy = start("copy", source.toString(), ganesha.uri("e2e-restart").toString(), "--concurrency", "2",
                "--dest-config", mountPort(ganesha), "--dest-config", "write-size=64k", "--dest-config", "rpcs-in-flight=2",
                "--dest-config", "reconnect-timeout=60s");
        for (int i = 0; i < 400 && copy.isAlive() && count(landed) < 2; i++) {
            Thread.sleep(25);
        }
        assertThat(copy.isAlive()).as("the copy is still running when ganesha restarts").isTrue();
        ganesha.restart();
        Run run = finish(copy);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(Trees.fingerprint(landed)).isEqualTo(Trees.fingerprint(source));
    }

    private static long count(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        try (var files = Files.list(folder)) {
            return files.count();
        }
    }

    @Test
    void anUnreachableServerIsOneLineNamingIt() throws Exception {
        Run run = mover("copy", "nfs://127.0.0.1:1/export/x", dir.resolve("out").toString(), "--source-config", "mount-port=1");
        assertThat(run.exit()).isNotZero();
        assertThat(run.err().strip()).contains("127.0.0.1").contains("nfs://127.0.0.1:1/export/x").doesNotContain("\tat ");
        assertThat(run.err().strip().lines()).hasSize(1);
    }

    @Test
    void aMissingExportIsRefusedNamingIt(Ganesha ganesha) throws Exception {
        Run run = mover("copy", "nfs://127.0.0.1:" + ganesha.nfsPort() + "/no-such-export/x", dir.resolve("out").toString(),
                "--source-config", mountPort(ganesha));
        assertThat(run.exit()).isNotZero();
        assertThat(run.err().strip()).contains("/no-such-export/x").contains("export").doesNotContain("\tat ");
        assertThat(run.err().strip().lines()).hasSize(1);
    }
}
