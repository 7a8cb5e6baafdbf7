package io.mover.core.plugin;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class PluginDirectoriesTest {
    @TempDir
    Path temp;

    @Test
    void explicitThenEnvironmentThenHomeMissingOnesSkippedDuplicatesOnce() throws Exception {
        Path explicit = Files.createDirectories(temp.resolve("explicit"));
        Path fromEnvironment = Files.createDirectories(temp.resolve("env"));
        Path home = Files.createDirectories(temp.resolve("home"));
        Path homePlugins = Files.createDirectories(home.resolve("plugins"));
        String variable = String.join(File.pathSeparator, fromEnvironment.toString(), "", temp.resolve("missing").toString(),
                explicit.resolve("../explicit").toString());

        List<Path> roots = PluginDirectories.resolve(Optional.of(home), List.of(explicit, temp.resolve("also-missing")),
                Map.of(PluginDirectories.ENVIRONMENT_VARIABLE, variable));

        assertThat(roots).containsExactly(explicit, fromEnvironment, homePlugins);
    }

    @Test
    void nothingConfiguredIsNoRoot() {
        assertThat(PluginDirectories.resolve(Optional.of(temp.resolve("no-home")), List.of(), Map.of())).isEmpty();
        assertThat(PluginDirectories.resolve(Optional.empty(), List.of(), Map.of(PluginDirectories.ENVIRONMENT_VARIABLE, "  "))).isEmpty();
    }
}
