package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs {@code mover copy} in-process through picocli on real trees in a temporary directory. */
@Timeout(60)
class CopyEndToEndTest {
    private static final String UNICODE_NAME = "ünïcødé 日本 ☃.txt";

    @TempDir
    Path temp;

    private Path source;
    private Path destination;

    @BeforeEach
    void buildTree() throws IOException {
        source = Files.createDirectories(temp.resolve("src"));
        destination = temp.resolve("dst");
        Files.createDirectories(source.resolve("a/b/c"));
        Files.createDirectories(source.resolve("empty"));
        Files.writeString(source.resolve("top.txt"), "top level\n");
        Files.write(source.resolve("a/zero.bin"), new byte[0]);
        Files.writeString(source.resolve("a/b/c/deep.txt"), "deep\n".repeat(1000));
        Files.writeString(source.resolve("a/" + UNICODE_NAME), "snow\n");
        byte[] big = new byte[3 * 1024 * 1024 + 12345];
        new Random(42).nextBytes(big);
        Files.write(source.resolve("a/b/big.bin"), big);
    }

    @Test
    void copiesTheTreeExactly() throws IOException {
        CliRun run = CliRun.of("copy", "--block-size", "256k", source.toString(), destination.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(tree(destination)).isEqualTo(tree(source));
        assertThat(run.out()).contains("Job succeeded", "Files:       5 scanned, 5 transferred, 0 skipped, 0 failed", "Bottleneck:");
        assertThat(run.out()).contains("READ", "ENCODE", "SEND", "DECODE", "WRITE", "COMMIT");
        assertThat(run.out()).contains("Concurrency: 16 (default)"); // a local destination suggests nothing
    }

    @Test
    void theSummarySaysAConcurrencyGivenWasSet() {
        CliRun run = CliRun.of("copy", "--concurrency", "16", "--output", "json", source.toString(), destination.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode summary = JsonOutput.MAPPER.readTree(run.outLines().getLast());
        assertThat(summary.get("concurrency").asString()).isEqualTo("16 (set)");
    }

    @Test
    void secondRunWithoutOverwriteSkipsEverything() throws IOException {
        assertThat(CliRun.of("copy", source.toString(), destination.toString()).exitCode()).isZero();

        CliRun again = CliRun.of("copy", "--overwrite", "false", source.toString(), destination.toString());

        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out()).contains("0 transferred, 5 skipped");
        assertThat(tree(destination)).isEqualTo(tree(source));
    }

    @Test
    void filtersApply() throws IOException {
        CliRun run = CliRun.of("copy", "--include", "*.txt", "--exclude", "c", source.toString(), destination.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Files.exists(destination.resolve("top.txt"))).isTrue();
        assertThat(Files.exists(destination.resolve("a/" + UNICODE_NAME))).isTrue();
        assertThat(Files.exists(destination.resolve("a/b/big.bin"))).isFalse();
        assertThat(Files.exists(destination.resolve("a/b/c/deep.txt"))).isFalse();
    }

    @Test
    void someFilesFailingExitsWithTwoAndListsThem() throws IOException {
        // a directory where a file must go: that one file fails, the rest are copied
        Files.createDirectories(destination.resolve("top.txt/occupied"));

        CliRun run = CliRun.of("copy", source.toString(), destination.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).contains("Job completed with errors", "4 transferred, 0 skipped, 1 failed", "Failures:    1 (first 1):", "  top.txt: ALREADY_EXISTS");
        assertThat(run.errLines()).containsExactly("mover: 1 of 5 files failed; the summary lists the reasons");
        assertThat(sha256(destination.resolve("a/b/big.bin"))).isEqualTo(sha256(source.resolve("a/b/big.bin")));
    }

    @Test
    void debugAddsTheStackTrace() {
        CliRun run = CliRun.of("copy", "--debug", temp.resolve("absent").toString(), destination.toString());

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.errLines().getFirst()).startsWith("mover: ").contains("does not exist");
        assertThat(run.err()).contains("io.mover.spi.MoverException", "\tat ");
    }

    @Test
    void missingSourceExitsWithThree() {
        CliRun run = CliRun.of("copy", temp.resolve("absent").toString(), destination.toString());

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.errLines()).singleElement().asString().startsWith("mover: ").contains("does not exist");
        assertThat(Files.exists(destination)).isFalse();
    }

    @Test
    void unknownSchemeListsTheInstalledOnes() {
        CliRun run = CliRun.of("copy", "foo://x", destination.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("mover: ").contains("'foo://'")
                .containsPattern("installed schemes: [a-z, ]*\\bfile\\b").contains("nfs").contains("azfiles");
    }

    @Test
    void destinationInsideTheSourceIsRefused() throws IOException {
        Map<String, String> before = tree(source);

        CliRun run = CliRun.of("copy", source.toString(), source.resolve("a/inside").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().contains("inside the source");
        assertThat(tree(source)).isEqualTo(before);
    }

    @Test
    void dryRunWritesNothingAndSaysWhatItWouldDo() {
        CliRun run = CliRun.of("copy", "--dry-run", source.toString(), destination.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Files.exists(destination)).isFalse();
        assertThat(run.outLines()).contains("would copy top.txt (10 B)", "would copy a/zero.bin (0 B)", "would copy a/" + UNICODE_NAME + " (5 B)");
        assertThat(run.outLines().stream().filter(line -> line.startsWith("would copy "))).hasSize(5);
        assertThat(run.out()).contains("Dry run succeeded: nothing was changed; 5 files");
    }

    @Test
    void jsonOutputIsNdjsonEndingWithASummary() throws IOException {
        CliRun run = CliRun.of("copy", "--output", "json", "--progress-interval", "100ms", source.toString(), destination.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<JsonNode> events = run.outLines().stream().map(JsonOutput.MAPPER::readTree).toList();
        assertThat(events).isNotEmpty();
        assertThat(events).allSatisfy(event -> assertThat(event.get("type").asString()).isIn("progress", "summary"));
        JsonNode summary = events.getLast();
        assertThat(summary.get("type").asString()).isEqualTo("summary");
        assertThat(summary.get("state").asString()).isEqualTo("SUCCEEDED");
        assertThat(summary.get("exitCode").asInt()).isZero();
        assertThat(summary.get("filesTransferred").asLong()).isEqualTo(5);
        assertThat(summary.get("bytesTransferred").asLong()).isEqualTo(Files.size(source.resolve("a/b/big.bin")) + 10 + 5000 + 5);
        assertThat(summary.get("stages").findValuesAsString("stage")).contains("READ", "ENCODE", "SEND", "DECODE", "WRITE", "COMMIT");
        assertThat(summary.get("failures").isArray()).isTrue();
        assertThat(summary.get("concurrency").asString()).isEqualTo("16 (default)");
        assertThat(tree(destination)).isEqualTo(tree(source));
    }

    @Test
    void jsonDryRunListsEachPlannedCopy() {
        CliRun run = CliRun.of("copy", "--output", "json", "--dry-run", source.toString(), destination.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<JsonNode> planned = run.outLines().stream().map(JsonOutput.MAPPER::readTree)
                .filter(event -> event.get("type").asString().equals("dryRun")).toList();
        assertThat(planned).extracting(event -> event.get("path").asString())
                .containsExactlyInAnyOrder("top.txt", "a/zero.bin", "a/b/c/deep.txt", "a/" + UNICODE_NAME, "a/b/big.bin");
        assertThat(Files.exists(destination)).isFalse();
    }

    @Test
    void singleFileSourceLandsInTheDestination() throws IOException {
        CliRun run = CliRun.of("copy", source.resolve("a/b/big.bin").toString(), destination.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(sha256(destination.resolve("big.bin"))).isEqualTo(sha256(source.resolve("a/b/big.bin")));
    }

    /** Every entry below {@code root}: directories as "dir", files by SHA-256. */
    private static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(p -> !p.equals(root)).toList()) {
                String relative = root.relativize(path).toString().replace('\\', '/');
                entries.put(relative, Files.isDirectory(path) ? "dir" : sha256(path));
            }
        }
        return entries;
    }

    private static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
