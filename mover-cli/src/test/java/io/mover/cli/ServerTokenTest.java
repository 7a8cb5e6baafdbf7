package io.mover.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** A server that requires bearer tokens: refusals say what to do, tokens work from every source, and never show. */
@Timeout(120)
class ServerTokenTest {
    private static final String OPERATE = "operate-token-4f1d2c9a8b7e6d5c";
    private static final String READ = "read-only-token-0a1b2c3d4e5f6789";

    @RegisterExtension
    static final ServerPerClass server = new ServerPerClass("--mover.tokens[0].token=" + OPERATE, "--mover.tokens[0].scope=operate",
            "--mover.tokens[1].token=" + READ, "--mover.tokens[1].scope=read");

    @TempDir
    Path temp;


    @Test
    void withoutATokenTheRefusalSaysHowToPassOne() throws IOException {
        CliRun list = CliRun.of("jobs", "list", "--server", server.url());
        CliRun copy = CliRun.of("copy", "--server", server.url(), Trees.sample(temp.resolve("src")).toString(), temp.resolve("dst").toString());

        assertThat(list.exitCode()).isEqualTo(7);
        assertThat(list.errLines()).containsExactly("mover: the mover server at " + server.url() + " refused the request: this server needs a token:"
                + " send 'Authorization: Bearer <token>'; pass a token with --token-file FILE or $MOVER_TOKEN");
        assertThat(copy.exitCode()).isEqualTo(7);
        assertThat(copy.errLines()).isEqualTo(list.errLines());
        assertThat(Files.exists(temp.resolve("dst"))).isFalse();
    }

    @Test
    void aReadTokenCannotSubmit() throws IOException {
        CliRun copy = CliRun.of("copy", "--server", server.url(), "--token", READ, Trees.sample(temp.resolve("src")).toString(),
                temp.resolve("dst").toString());

        assertThat(copy.exitCode()).isEqualTo(7);
        assertThat(copy.err()).contains("this token has scope read", "pass a token with scope operate").doesNotContain(READ);
        assertThat(CliRun.of("jobs", "list", "--server", server.url(), "--token", READ).exitCode()).isZero();
    }

    @Test
    void aTokenFromTheEnvironmentCopiesAndNeverShowsEvenWithDebug() throws IOException {
        Path source = Trees.sample(temp.resolve("src"));
        PrintStream realErr = System.err;
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        CliRun run;
        // --debug logs go to the process's stderr: captured too
        System.setErr(new PrintStream(logs, true, StandardCharsets.UTF_8));
        try {
            run = CliRun.withEnvironment(Map.of("MOVER_SERVER", server.url(), "MOVER_TOKEN", OPERATE), "copy", "--debug", "--log-level", "trace",
                    source.toString(), temp.resolve("dst").toString());
        }
        finally {
            System.setErr(realErr);
        }

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Trees.describe(temp.resolve("dst"))).isEqualTo(Trees.describe(source));
        assertThat(run.out() + run.err() + logs.toString(StandardCharsets.UTF_8)).doesNotContain(OPERATE);
    }

    @Test
    void aTokenFileAndTheTokenOptionWork() throws IOException {
        Path tokenFile = Files.writeString(temp.resolve("token"), OPERATE + "\n");

        CliRun fromFile = CliRun.of("jobs", "list", "--server", server.url(), "--token-file", tokenFile.toString());
        CliRun fromOption = CliRun.of("jobs", "list", "--server", server.url(), "--token", OPERATE);

        assertThat(fromFile.exitCode()).as(fromFile.err()).isZero();
        assertThat(fromOption.exitCode()).as(fromOption.err()).isZero();
        assertThat(fromFile.out() + fromFile.err() + fromOption.out() + fromOption.err()).doesNotContain(OPERATE);
    }

    @Test
    void aWrongTokenIsRefusedWithoutEchoingIt() {
        CliRun run = CliRun.of("jobs", "list", "--server", server.url(), "--token", "not-the-right-token-at-all");

        assertThat(run.exitCode()).isEqualTo(7);
        assertThat(run.err()).contains("the bearer token is not one this server knows").doesNotContain("not-the-right-token-at-all");
    }

    @Test
    void usageErrorsDoNotEchoTheToken() {
        CliRun twice = CliRun.of("jobs", "list", "--server", server.url(), "--token=" + OPERATE, "--token", READ);
        CliRun both = CliRun.of("copy", "--server", server.url(), "--token", OPERATE, "--token-file", "x", "a", "b");

        assertThat(twice.exitCode()).isEqualTo(1);
        assertThat(both.exitCode()).isEqualTo(1);
        assertThat(twice.err() + both.err()).startsWith("mover: ").doesNotContain(OPERATE).doesNotContain(READ);
    }

    @Test
    void anUnreadableTokenFileNamesTheFile() {
        Path missing = temp.resolve("no-such-token");

        CliRun run = CliRun.of("jobs", "list", "--server", server.url(), "--token-file", missing.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).containsExactly("mover: cannot read the token file " + missing + ": NoSuchFileException");
    }
}
