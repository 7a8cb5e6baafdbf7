package io.mover.e2e;

import io.mover.plugins.nfs.Ganesha;
import io.mover.plugins.nfs.GaneshaExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mover sync} to and from NFS through a real nfs-ganesha: new, modified and deleted files (and a deleted
 * folder) with {@code --delete-destination true}, then a sync with nothing to do; and symbolic links copied as links
 * both ways ({@code --preserve-symlinks}), followed ({@code --follow-symlinks}) or skipped.
 */
@Timeout(300)
@ExtendWith(GaneshaExtension.class)
class NfsSyncEndToEndTest {
    private static final Instant CHANGED = Instant.parse("2026-02-03T04:05:06.123456789Z");
    @TempDir
    Path dir;

    private record Run(int exit, String err, JsonNode summary) {
    }

    private Run mover(Ganesha ganesha, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(args));
        command.addAll(List.of("--output", "json"));
        if (args[1].startsWith("nfs:")) {
            command.addAll(List.of("--source-config", "mount-port=" + ganesha.mountPort()));
        }
        if (args[2].startsWith("nfs:")) {
            command.addAll(List.of("--dest-config", "mount-port=" + ganesha.mountPort()));
        }
        Process process = CliProcesses.start(dir, command.toArray(String[]::new));
        assertThat(process.waitFor(240, TimeUnit.SECONDS)).as("mover finished").isTrue();
        List<String> out = Files.readAllLines(dir.resolve("out.txt"));
        String err = Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
        JsonNode summary = out.isEmpty() ? null : JsonMapper.builder().build().readTree(out.getLast());
        return new Run(process.exitValue(), err + String.join("\n", out), summary);
    }

    private static long copies(Run run) {
        return run.summary().get("sync").get("copyTransfers").asLong();
    }

    private static long deletions(Run run) {
        return run.summary().get("sync").get("deletions").asLong();
    }

    @Test
    void syncsToAndFromNfsNewModifiedAndDeletedFiles(Ganesha ganesha) throws Exception {
        Path source = Trees.sample(dir.resolve("src"));
        Path mirror = dir.resolve("mirror");
        String nfs = ganesha.uri("e2e-sync").toString();
        Path exported = ganesha.export().resolve("e2e-sync");

        Run first = mover(ganesha, "sync", source.toString(), nfs);
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(Trees.fingerprint(exported)).isEqualTo(Trees.fingerprint(source));
        assertThat(copies(first)).isEqualTo(56);
        Run down = mover(ganesha, "sync", nfs, mirror.toString());
        assertThat(down.exit()).as(down.err()).isZero();
        assertThat(Trees.fingerprint(mirror)).isEqualTo(Trees.fingerprint(source));

        // the change matrix: one file modified, one new, one file and one folder deleted
        Files.writeString(source.resolve("readme.txt"), "changed\n");
        Files.setLastModifiedTime(source.resolve("readme.txt"), FileTime.from(CHANGED));
        Files.writeString(source.resolve("many/new.txt"), "new\n");
        Files.delete(source.resolve("many/f3.dat"));
        Files.delete(source.resolve("a/b/c/deep.bin"));
        Files.delete(source.resolve("a/b/c"));
        Files.delete(source.resolve("a/b"));

        Run up = mover(ganesha, "sync", source.toString(), nfs, "--delete-destination", "true");
        assertThat(up.exit()).as(up.err()).isZero();
        assertThat(Trees.fingerprint(exported)).isEqualTo(Trees.fingerprint(source));
        assertThat(copies(up)).isEqualTo(2);
        assertThat(deletions(up)).isGreaterThanOrEqualTo(2);
        assertThat(Files.getLastModifiedTime(exported.resolve("readme.txt")).toInstant()).isEqualTo(CHANGED);

        Run back = mover(ganesha, "sync", nfs, mirror.toString(), "--delete-destination", "true");
        assertThat(back.exit()).as(back.err()).isZero();
        assertThat(Trees.fingerprint(mirror)).isEqualTo(Trees.fingerprint(source));
        assertThat(copies(back)).isEqualTo(2);
        assertThat(Files.getLastModifiedTime(mirror.resolve("readme.txt")).toInstant()).isEqualTo(CHANGED);

        Run again = mover(ganesha, "sync", source.toString(), nfs, "--delete-destination", "true");
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(copies(again)).as("nothing changed: times kept to the nanosecond both ways").isZero();
        assertThat(deletions(again)).isZero();
        assertThat(again.summary().get("sync").get("unchanged").asLong()).isEqualTo(55);
    }

    @Test
    void linksTravelAsLinksBothWaysOrAreFollowedOrSkipped(Ganesha ganesha) throws Exception {
        Path source = Files.createDirectories(dir.resolve("links"));
        Files.createDirectories(source.resolve("folder"));
        Files.writeString(source.resolve("folder/data.txt"), "data");
        Files.createSymbolicLink(source.resolve("to-file"), Path.of("folder/data.txt"));
        Files.createSymbolicLink(source.resolve("to-folder"), Path.of("folder"));
        Files.createSymbolicLink(source.resolve("folder/elsewhere"), Path.of("/no/such/place"));
        String nfs = ganesha.uri("e2e-links").toString();
        Path exported = ganesha.export().resolve("e2e-links");

        Run up = mover(ganesha, "copy", source.toString(), nfs, "--preserve-symlinks");
        assertThat(up.exit()).as(up.err()).isZero();
        assertThat(Files.readSymbolicLink(exported.resolve("to-file"))).isEqualTo(Path.of("folder/data.txt"));
        assertThat(Files.readSymbolicLink(exported.resolve("to-folder"))).isEqualTo(Path.of("folder"));
        assertThat(Files.readSymbolicLink(exported.resolve("folder/elsewhere"))).isEqualTo(Path.of("/no/such/place"));

        Path back = dir.resolve("back");
        Run down = mover(ganesha, "copy", nfs, back.toString(), "--preserve-symlinks");
        assertThat(down.exit()).as(down.err()).isZero();
        assertThat(Files.readSymbolicLink(back.resolve("to-file"))).isEqualTo(Path.of("folder/data.txt"));
        assertThat(Files.readSymbolicLink(back.resolve("folder/elsewhere"))).isEqualTo(Path.of("/no/such/place"));

        Path followed = dir.resolve("followed");
        Run follow = mover(ganesha, "copy", nfs, followed.toString(), "--follow-symlinks");
        assertThat(follow.exit()).as(follow.err()).isZero();
        assertThat(Files.isSymbolicLink(followed.resolve("to-file"))).isFalse();
        assertThat(Files.readString(followed.resolve("to-file"))).isEqualTo("data");
        assertThat(Files.readString(followed.resolve("to-folder/data.txt"))).isEqualTo("data");
        assertThat(Files.exists(followed.resolve("folder/elsewhere"), LinkOption.NOFOLLOW_LINKS)).as("an absolute target is not followed").isFalse();

        Path skipped = dir.resolve("skipped");
        Run skip = mover(ganesha, "copy", nfs, skipped.toString());
        assertThat(skip.exit()).as(skip.err()).isZero();
        assertThat(skip.summary().get("filesSkipped").asLong()).isEqualTo(3);
        assertThat(Files.exists(skipped.resolve("to-file"), LinkOption.NOFOLLOW_LINKS)).isFalse();

        // a link changed at the source is changed by a sync
        Files.delete(source.resolve("to-file"));
        Files.createSymbolicLink(source.resolve("to-file"), Path.of("folder/elsewhere"));
        Run sync = mover(ganesha, "sync", source.toString(), nfs, "--preserve-symlinks", "--delete-destination", "true");
        assertThat(sync.exit()).as(sync.err()).isZero();
        assertThat(Files.readSymbolicLink(exported.resolve("to-file"))).isEqualTo(Path.of("folder/elsewhere"));
        assertThat(copies(sync)).isEqualTo(1);
    }
}
