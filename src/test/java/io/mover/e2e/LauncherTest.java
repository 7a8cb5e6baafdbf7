package io.mover.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code ./mover} launcher over the CLI this build packaged: it trains a start-up cache once per checkout and
 * family, takes it again however the checkout's path is spelt, and trains afresh after a rebuild; a cache it took
 * but the JVM refused would go unnoticed, only slower (docs/cli.md, "start-up").
 */
@Timeout(300)
class LauncherTest {
    private static final String TRAINING = "preparing the start-up cache";

    @TempDir
    Path temp;
    private Path checkout;
    private Path cache;

    @BeforeEach
    void findTheCheckout() {
        checkout = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
        assertThat(checkout.resolve("mover")).as("the launcher at the checkout's root").isExecutable();
        assertThat(checkout.resolve("mover-cli/target/lib-serve")).as("the CLI packaged by this build").isDirectory();
        cache = temp.resolve("cache");
    }

    @Test
    void trainsOnceAndTakesTheCacheFromAnySpellingOfItsPath() throws Exception {
        Run first = run(checkout, Map.of(), "./mover", "--version");
        assertThat(first.out()).startsWith("mover ");
        assertThat(first.err()).contains(TRAINING);
        Path aot = onlyCache();
        assertThat(aot.getFileName().toString()).endsWith("-local.aot");
        assertThat(Path.of(aot + ".classpath")).isRegularFile();

        assertThat(run(checkout, Map.of(), checkout.resolve("mover").toString(), "--version").err()).doesNotContain(TRAINING);
        assertThat(run(checkout.resolve("mover-e2e"), Map.of(), "../mover", "--version").err()).doesNotContain(TRAINING);
        assertThat(run(checkout.resolve("mover-cli"), Map.of(), "./.././mover", "--version").err()).doesNotContain(TRAINING);
        assertThat(onlyCache()).isEqualTo(aot);
    }

    @Test
    void trainsAgainWhenAJarIsNewerOrTheClassPathChanged() throws Exception {
        assertThat(run(checkout, Map.of(), "./mover", "--version").err()).contains(TRAINING);
        Path aot = onlyCache();

        // a rebuilt jar is newer than the cache trained before it
        Files.setLastModifiedTime(aot, FileTime.from(Instant.parse("2001-01-01T00:00:00Z")));
        assertThat(run(checkout, Map.of(), "./mover", "--version").err()).contains(TRAINING);

        // a jar added or removed changes the class path the cache was trained on
        Path classpath = Path.of(aot + ".classpath");
        Files.writeString(classpath, "/elsewhere/mover-cli.jar\n");
        assertThat(run(checkout, Map.of(), "./mover", "--version").err()).contains(TRAINING);
        assertThat(Files.readString(classpath)).contains("mover-cli/target/lib/");

        assertThat(run(checkout, Map.of(), "./mover", "--version").err()).doesNotContain(TRAINING);
    }

    @Test
    void moverCdsZeroStartsWithoutACache() throws Exception {
        Run run = run(checkout, Map.of("MOVER_CDS", "0"), "./mover", "--version");

        assertThat(run.out()).startsWith("mover ");
        assertThat(run.err()).doesNotContain(TRAINING);
        assertThat(cache).doesNotExist();
    }

    /** A checkout never built: the launcher builds (here a wrapper that makes nothing) and says what is missing. */
    @Test
    void aCheckoutWithoutTheCliBuildsItFirstAndSaysWhenThatMadeNothing() throws Exception {
        Path bare = Files.createDirectories(temp.resolve("bare"));
        Files.copy(checkout.resolve("mover"), bare.resolve("mover"));
        Files.writeString(bare.resolve("mvnw"), "#!/bin/sh\necho 'a build that makes nothing' >&2\n");
        bare.resolve("mvnw").toFile().setExecutable(true);

        Run run = start(bare, Map.of(), "./mover", "--version");

        assertThat(run.status()).isEqualTo(7);
        assertThat(run.err()).contains("building the CLI (first run)").contains("a build that makes nothing")
                .contains("the build made no mover-cli jar in " + bare.resolve("mover-cli/target"));
    }

    private Path onlyCache() throws IOException {
        try (Stream<Path> files = Files.list(cache.resolve("mover"))) {
            List<Path> caches = files.filter(f -> f.toString().endsWith(".aot")).toList();
            assertThat(caches).hasSize(1);
            return caches.getFirst();
        }
    }

    /** {@link #start}, which must succeed. */
    private Run run(Path directory, Map<String, String> env, String... command) throws IOException, InterruptedException {
        Run run = start(directory, env, command);
        assertThat(run.status()).as("exit status; stderr: %s", run.err()).isZero();
        return run;
    }

    private Run start(Path directory, Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        builder.environment().put("XDG_CACHE_HOME", cache.toString());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("MOVER_CDS");
        builder.environment().remove("MOVER_JAVA_OPTS");
        builder.environment().putAll(env);
        Path out = Files.createTempFile(temp, "out", ".txt");
        Path err = Files.createTempFile(temp, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the launcher ended").isTrue();
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private record Run(int status, String out, String err) {}
}
