package io.mover.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The launcher's training run works: if it failed, every start would go without the cache, silently slower. */
@Timeout(60)
class AotTrainingTest {
    @TempDir
    Path temp;

    @Test
    void copiesAndRunsTheClientCommandsAgainstItsStub() throws IOException, InterruptedException {
        assertTrains("client");
    }

    @Test
    void thePeerFamilyCopiesOverLoopbackWithoutAServer() throws IOException, InterruptedException {
        assertTrains("peer");
    }

    @Test
    void theLocalFamilyCopiesBetweenFoldersOnly() throws IOException, InterruptedException {
        Path source = Trees.sample(temp.resolve("in"));

        AotTraining.main(new String[] {"local", source.toString(), temp.resolve("out").toString()});

        assertThat(Trees.describe(temp.resolve("out"))).isEqualTo(Trees.describe(source));
        assertThat(temp.resolve("out-received")).doesNotExist();
    }

    @Test
    void anUnknownFamilyIsRefused() {
        assertThatThrownBy(() -> AotTraining.main(new String[] {"all", temp.toString(), temp.resolve("out").toString()}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AotTraining.main(new String[] {temp.toString(), temp.resolve("out").toString()}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private void assertTrains(String family) throws IOException, InterruptedException {
        Path source = Trees.sample(temp.resolve("in"));

        AotTraining.main(new String[] {family, source.toString(), temp.resolve("out").toString()});

        assertThat(Trees.describe(temp.resolve("out"))).isEqualTo(Trees.describe(source));
        assertThat(Files.exists(temp.resolve("out/top.txt"))).isTrue();
        // and over loopback to a receiver in the same process, so the peer's classes are cached too
        assertThat(Trees.describe(temp.resolve("out-received/aot"))).isEqualTo(Trees.describe(source));
    }
}
