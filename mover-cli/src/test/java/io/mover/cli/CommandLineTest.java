package io.mover.cli;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import io.mover.core.engine.OverwritePolicy;
import io.mover.core.engine.SymlinkPolicy;
import io.mover.core.engine.TransferOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class CommandLineTest {
    @TempDir
    Path temp;

    @Test
    void versionComesFromTheBuild() {
        CliRun run = CliRun.of("--version");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("mover ").doesNotContain("${").doesNotContain("unknown");
    }

    /** The tree is built for the arguments (Main.commandLine): the version without any verb, help and errors with all of them. */
    @Test
    void theTreeBuiltForTheArgumentsAnswersAsTheWholeOne() {
        for (String[] args : new String[][] {{"--version"}, {"-V"}, {"--help"}, {"-h"}, {"cpoy", "a", "b"}, {"--version", "copy"}, {"--bogus"}}) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.commandLine(new CliContext(false, false, java.util.Map.of()), new java.io.PrintWriter(out, true),
                    new java.io.PrintWriter(err, true)).execute(args);
            CliRun run = CliRun.of(args);
            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(code);
            assertThat(run.out()).as(String.join(" ", args)).isEqualTo(out.toString());
            assertThat(run.err()).as(String.join(" ", args)).isEqualTo(err.toString());
        }
        assertThat(CliRun.of("--help").out()).contains("copy", "sync", "jobs", "schedules", "serve", "receive");
        assertThat(CliRun.of("cpoy").err()).contains("Unmatched argument", "cpoy");
    }

    @Test
    void noCommandPrintsUsageAndIsAUsageError() {
        CliRun run = CliRun.of();
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("Usage: mover").contains("copy").contains("plugins").contains("Exit codes:");
    }

    @Test
    void helpListsTheCopyOptions() {
        CliRun run = CliRun.of("copy", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("--concurrency", "--block-size", "--include", "--exclude", "--overwrite", "--dry-run",
                "--verify", "--follow-symlinks", "--preserve-symlinks", "--codec", "--retries", "--output", "--log-level", "--debug",
                "--progress-interval", "--source-config", "--dest-config", "--plugins");
    }

    @Test
    void helpSaysTheConcurrencyDefaultsToWhatTheDestinationSuggests() {
        for (String command : new String[] {"copy", "sync"}) {
            CliRun run = CliRun.of(command, "--help");
            assertThat(run.out().replaceAll("\\s+", " ")).as(command).contains("Default: 16, or what the destination suggests");
        }
    }

    @Test
    void aConcurrencyGivenIsSetEvenWhenItIsTheDefaultAndNoneGivenIsNotSet() {
        CopyCommand given = new CopyCommand(new CliContext(false, false));
        new CommandLine(given).parseArgs("--concurrency", "16", "src", "dst");
        CopyCommand none = new CopyCommand(new CliContext(false, false));
        new CommandLine(none).parseArgs("src", "dst");

        assertThat(given.options().concurrencySet()).isTrue();
        assertThat(none.options().concurrencySet()).isFalse();
        assertThat(none.options().concurrency()).isEqualTo(16);
        assertThat(RemoteCopy.SubmitBody.copy("src", "dst", none.options(), java.util.Map.of(), java.util.Map.of()).options())
                .doesNotContainKey("concurrency");
        assertThat(RemoteCopy.SubmitBody.copy("src", "dst", given.options(), java.util.Map.of(), java.util.Map.of()).options())
                .containsEntry("concurrency", 16);
    }

    @Test
    void debugIsReadFromTheCommonOptionsOfEveryKindOfCommand() {
        // copy mixes the common options in itself, jobs list inherits them from ServerCommand, schedules create nests deeper
        for (String[] args : new String[][] {{"copy", "a", "b"}, {"jobs", "list"}, {"schedules", "create", "n", "a", "b", "--every", "1h"}}) {
            CommandLine plain = Main.commandLine(new CliContext(false, false, java.util.Map.of()), new java.io.PrintWriter(java.io.Writer.nullWriter()),
                    new java.io.PrintWriter(java.io.Writer.nullWriter()));
            CommandLine debug = Main.commandLine(new CliContext(false, false, java.util.Map.of()), new java.io.PrintWriter(java.io.Writer.nullWriter()),
                    new java.io.PrintWriter(java.io.Writer.nullWriter()));
            String[] withDebug = java.util.Arrays.copyOf(args, args.length + 1);
            withDebug[args.length] = "--debug";

            assertThat(CliErrors.debug(last(plain.parseArgs(args)))).as(String.join(" ", args)).isFalse();
            assertThat(CliErrors.debug(last(debug.parseArgs(withDebug)))).as(String.join(" ", withDebug)).isTrue();
        }
    }

    private static CommandLine last(CommandLine.ParseResult parsed) {
        return parsed.asCommandLineList().getLast();
    }

    @Test
    void unknownOptionIsOneLineWithAHintToHelp() {
        CliRun run = CliRun.of("copy", "--bogus", "a", "b");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).containsExactly("mover: Unknown option: '--bogus' (see 'mover copy --help')");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void missingOperandsAreAUsageError() {
        CliRun run = CliRun.of("copy", "only-one");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("mover: Missing required parameter").contains("DST");
    }

    @Test
    void badSizeNamesTheOptionAndTheSyntax() {
        CliRun run = CliRun.of("copy", "--block-size", "4 parsecs", "a", "b");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().contains("--block-size").contains("4MiB, 512k");
    }

    @Test
    void outOfRangeValuesAreUsageErrorsWithoutStackTraces() {
        assertUsageError(CliRun.of("copy", "--block-size", "1k", "a", "b"), "invalid block-size");
        assertUsageError(CliRun.of("copy", "--concurrency", "0", "a", "b"), "invalid concurrency");
        assertUsageError(CliRun.of("copy", "--retries", "-1", "a", "b"), "invalid retries");
        assertUsageError(CliRun.of("copy", "--overwrite", "sometimes", "a", "b"), "true, false or if-source-newer");
        assertUsageError(CliRun.of("copy", "--progress-interval", "0s", "a", "b"), "must be positive");
        assertUsageError(CliRun.of("copy", "--output", "yaml", "a", "b"), "--output");
        assertUsageError(CliRun.of("copy", "--follow-symlinks", "--preserve-symlinks", "a", "b"), "mutually exclusive");
    }

    @Test
    void unknownCodecIsAUsageError() throws Exception {
        Path source = Files.createDirectories(temp.resolve("src"));
        CliRun run = CliRun.of("copy", "--codec", "no-such-codec", source.toString(), temp.resolve("dst").toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("mover: ").contains("no-such-codec");
    }

    @Test
    void missingPluginDirectoryIsAUsageError() {
        CliRun run = CliRun.of("plugins", "--plugins", temp.resolve("absent").toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().contains("plugin directory");
    }

    @Test
    void optionsMapToTransferOptions() {
        CopyCommand copy = new CopyCommand(new CliContext(false, false));
        new CommandLine(copy).setCaseInsensitiveEnumValuesAllowed(true).parseArgs("--concurrency", "4", "--block-size", "4MiB",
                "--include", "*.txt", "--include", "logs/**", "--exclude", "*.tmp", "--overwrite", "if-source-newer", "--dry-run",
                "--verify", "--preserve-symlinks", "--codec", "lz4", "--retries", "5", "--progress-interval", "500ms",
                "--source-config", "a=1", "--dest-config", "b=2", "--output", "JSON", "src", "dst");
        TransferOptions options = copy.options();
        assertThat(options.concurrency()).isEqualTo(4);
        assertThat(options.blockSize()).isEqualTo(4 << 20);
        assertThat(options.includes()).containsExactly("*.txt", "logs/**");
        assertThat(options.excludes()).containsExactly("*.tmp");
        assertThat(options.overwrite()).isEqualTo(OverwritePolicy.IF_SOURCE_NEWER);
        assertThat(options.dryRun()).isTrue();
        assertThat(options.verify()).isTrue();
        assertThat(options.symlinks()).isEqualTo(SymlinkPolicy.PRESERVE);
        assertThat(options.codec()).isEqualTo("lz4");
        assertThat(options.maxRetries()).isEqualTo(5);
        assertThat(options.progressInterval()).hasMillis(500);
        assertThat(copy.flags.sourceConfig).containsEntry("a", "1");
        assertThat(copy.flags.destinationConfig).containsEntry("b", "2");
        assertThat(copy.common.json()).isTrue();
    }

    @Test
    void defaultsAreTheEngineDefaults() {
        CopyCommand copy = new CopyCommand(new CliContext(false, false));
        new CommandLine(copy).parseArgs("src", "dst");
        assertThat(copy.options()).isEqualTo(TransferOptions.defaults());
    }

    @Test
    void pluginsListsTheLocalPlugin() {
        CliRun run = CliRun.of("plugins");
        assertThat(run.exitCode()).isZero();
        assertThat(run.outLines().get(0)).startsWith("NAME").contains("VERSION", "LOCATION", "READS", "WRITES", "CODECS");
        assertThat(run.out()).containsPattern("(?m)^local\\s+\\S+\\s+classpath\\s+file\\s+file");
    }

    @Test
    void pluginsAsJson() {
        CliRun run = CliRun.of("plugins", "--output", "json");
        assertThat(run.exitCode()).isZero();
        JsonNode plugins = JsonOutput.MAPPER.readTree(run.out()).get("plugins");
        assertThat(plugins.isArray()).isTrue();
        assertThat(JsonOutput.MAPPER.readTree(run.out()).get("failures").isArray()).isTrue();
        assertThat(plugins.findValuesAsString("name")).contains("local");
    }

    private static void assertUsageError(CliRun run, String expected) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.errLines()).as(run.err()).singleElement().asString().startsWith("mover: ").contains(expected);
        assertThat(run.err()).doesNotContain("\tat ");
    }
}
