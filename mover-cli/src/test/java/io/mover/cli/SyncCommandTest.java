package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code mover sync} on real local trees: the change matrix, metadata, guards, dry run and output. */
@Timeout(120)
class SyncCommandTest {
    private static final FileTime T0 = FileTime.from(Instant.parse("2025-06-01T10:00:00.123456789Z"));

    @TempDir
    Path tmp;

    private Path src() {
        return tmp.resolve("src");
    }

    private Path dst() {
        return tmp.resolve("dst");
    }

    private CliRun sync(String... options) {
        String[] args = new String[options.length + 3];
        args[0] = "sync";
        System.arraycopy(options, 0, args, 1, options.length);
        args[options.length + 1] = src().toString();
        args[options.length + 2] = dst().toString();
        return CliRun.of(args);
    }

    private void write(String path, String content, FileTime mtime) throws IOException {
        Path file = src().resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        Files.setLastModifiedTime(file, mtime);
    }

    @Test
    void theChangeMatrixOnADiskWithModesAndTimes() throws IOException {
        write("same-size.txt", "12345", T0);
        write("grows.txt", "x", T0);
        write("gone.txt", "bye", T0);
        write("old-name.txt", "renamed", T0);
        write("flip", "a file", T0);
        write("d/e/deep.txt", "deep", T0);
        Files.setPosixFilePermissions(src().resolve("grows.txt"), PosixFilePermissions.fromString("rwx------"));
        Files.setLastModifiedTime(src().resolve("d/e"), T0);
        Files.setLastModifiedTime(src().resolve("d"), T0);

        CliRun first = sync("--delete-destination", "true");
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(Trees.describe(dst())).isEqualTo(Trees.describe(src()));
        assertThat(Files.getLastModifiedTime(dst().resolve("same-size.txt"))).isEqualTo(T0);
        assertThat(Files.getLastModifiedTime(dst().resolve("d"))).isEqualTo(T0);
        assertThat(Files.getLastModifiedTime(dst().resolve("d/e"))).isEqualTo(T0);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dst().resolve("grows.txt")))).isEqualTo("rwx------");

        CliRun again = sync("--delete-destination", "true");
        assertThat(again.out()).contains("Scanned:     6 files at the source, 6 at the destination").contains("6 unchanged")
                .contains("Copies:      0 files");

        write("new.txt", "new", T0);
        write("same-size.txt", "54321", FileTime.from(T0.toInstant().plusSeconds(60)));
        write("grows.txt", "xxxxxxxx", T0);
        Files.delete(src().resolve("gone.txt"));
        Files.move(src().resolve("old-name.txt"), src().resolve("new-name.txt"));
        Files.delete(src().resolve("flip"));
        write("flip/inside.txt", "now a folder", T0);
        Files.setPosixFilePermissions(src().resolve("d/e/deep.txt"), PosixFilePermissions.fromString("rw-r-----"));

        CliRun changed = sync("--delete-destination", "true");

        assertThat(changed.exitCode()).as(changed.err()).isZero();
        assertThat(Trees.describe(dst())).isEqualTo(Trees.describe(src()));
        assertThat(changed.out()).contains("Copies:      5 files").contains("Deletions:   3 of 3 planned").contains("1 with only mode or time set");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dst().resolve("d/e/deep.txt")))).isEqualTo("rw-r-----");
        assertThat(Files.getLastModifiedTime(dst().resolve("d/e"))).isEqualTo(T0);

        Files.delete(src().resolve("flip/inside.txt"));
        Files.delete(src().resolve("flip"));
        write("flip", "a file again", T0);
        assertThat(sync("--delete-destination", "true").exitCode()).isZero();
        assertThat(Files.readString(dst().resolve("flip"))).isEqualTo("a file again");
    }

    @Test
    void theGuardStopsBeforeDeletingAndTheDryRunListsBoth() throws IOException {
        write("a", "1", T0);
        write("b", "2", T0);
        write("c", "3", T0);
        assertThat(sync().exitCode()).isZero();
        Files.delete(src().resolve("a"));
        Files.delete(src().resolve("b"));
        write("n", "new", T0);
        Map<String, String> before = Trees.describe(dst());

        CliRun guarded = sync("--delete-destination", "true", "--max-delete", "1");
        assertThat(guarded.exitCode()).isEqualTo(1);
        assertThat(guarded.err()).contains("more than 1 files").contains("stopped before deleting anything");
        assertThat(Trees.describe(dst())).isEqualTo(before);

        CliRun dry = sync("--delete-destination", "true", "--dry-run", "--output", "json");
        assertThat(dry.exitCode()).isZero();
        assertThat(dry.outLines()).contains("{\"type\":\"dryRun\",\"action\":\"delete\",\"path\":\"a\",\"size\":1}",
                "{\"type\":\"dryRun\",\"action\":\"delete\",\"path\":\"b\",\"size\":1}",
                "{\"type\":\"dryRun\",\"action\":\"copy\",\"path\":\"n\",\"size\":3}");
        assertThat(dry.outLines().getLast()).contains("\"sync\":{").contains("\"deletionsPlanned\":2").contains("\"copyTransfers\":1");
        assertThat(Trees.describe(dst())).isEqualTo(before);

        CliRun kept = sync();
        assertThat(kept.exitCode()).isZero();
        assertThat(dst().resolve("a")).exists();
        assertThat(dst().resolve("n")).exists();
    }

    @Test
    void badInputIsOneLineAndExitOne() throws IOException {
        write("f", "x", T0);
        CliRun file = CliRun.of("sync", src().resolve("f").toString(), dst().toString());
        assertThat(file.exitCode()).isEqualTo(1);
        assertThat(file.errLines()).singleElement().asString().contains("use mover copy for a single file");

        CliRun inside = CliRun.of("sync", src().toString(), src().getParent().toString());
        assertThat(inside.exitCode()).isEqualTo(1);
        assertThat(inside.err()).contains("is inside the destination");

        CliRun badMode = sync("--delete-destination", "maybe");
        assertThat(badMode.exitCode()).isEqualTo(1);
        assertThat(badMode.err()).contains("use true, false or prompt");

        CliRun missingList = sync("--files-from", tmp.resolve("nope.txt").toString());
        assertThat(missingList.exitCode()).isEqualTo(1);
        assertThat(missingList.err()).contains("cannot read --files-from");

        Files.createDirectories(tmp.resolve("empty"));
        CliRun emptySource = CliRun.of("sync", "--delete-destination", "true", tmp.resolve("empty").toString(), src().toString());
        assertThat(emptySource.exitCode()).isEqualTo(1);
        assertThat(emptySource.err()).contains("the source lists no file");
        assertThat(src().resolve("f")).exists();
    }

    @Test
    void filtersAndPromptWithoutATerminal() throws IOException {
        write("keep.log", "log", T0);
        write("skip.tmp", "tmp", T0);
        write("big.bin", "x".repeat(5000), T0);
        CliRun filtered = sync("--exclude", "*.tmp", "--max-size", "1k", "--min-age", "1d");
        assertThat(filtered.exitCode()).isZero();
        assertThat(dst().resolve("keep.log")).exists();
        assertThat(dst().resolve("skip.tmp")).doesNotExist();
        assertThat(dst().resolve("big.bin")).doesNotExist();

        Files.delete(src().resolve("keep.log"));
        write("other", "o", T0);
        CliRun prompt = sync("--delete-destination", "prompt");
        assertThat(prompt.exitCode()).isZero();
        assertThat(prompt.err()).contains("needs a terminal");
        assertThat(dst().resolve("keep.log")).exists();
    }

    @Test
    void withTheCatalogAChangeBehindMoversBackIsNotSeenAndWithoutItIs() throws IOException {
        write("a.txt", "alpha", T0);
        write("d/b.txt", "beta", T0);
        String previous = System.getProperty("mover.catalog.dir");
        System.setProperty("mover.catalog.dir", tmp.resolve("catalogs").toString());
        try {
            CliRun first = sync("--catalog", "--delete-destination", "true");
            assertThat(first.exitCode()).as(first.err()).isZero();
            assertThat(first.out()).contains("no catalog of this source and destination yet");
            assertThat(Trees.describe(dst())).isEqualTo(Trees.describe(src()));

            Files.delete(dst().resolve("d/b.txt")); // someone else changes the destination
            CliRun cataloged = sync("--catalog", "--delete-destination", "true");
            assertThat(cataloged.exitCode()).as(cataloged.err()).isZero();
            assertThat(cataloged.out()).contains("2 destination folders read from the catalog", "0 listed").contains("2 unchanged");
            assertThat(dst().resolve("d/b.txt")).as("not seen: the documented trade-off").doesNotExist();

            CliRun listed = sync("--delete-destination", "true");
            assertThat(listed.exitCode()).as(listed.err()).isZero();
            assertThat(Trees.describe(dst())).isEqualTo(Trees.describe(src()));
        }
        finally {
            if (previous == null) {
                System.clearProperty("mover.catalog.dir");
            }
            else {
                System.setProperty("mover.catalog.dir", previous);
            }
        }
    }
}
