package io.mover.core.plugin;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * Where plugins are searched: each root holds one {@code <name>/} directory per plugin. In this order:
 * the directories given explicitly ({@code --plugins DIR}), those in {@value #ENVIRONMENT_VARIABLE}
 * (separated by {@link File#pathSeparator}), and {@code <mover home>/plugins}. A root that does not exist
 * is skipped without complaint (a fresh install has no {@code plugins/} yet); one named twice is
 * scanned once.
 */
public final class PluginDirectories {
    public static final String ENVIRONMENT_VARIABLE = "MOVER_PLUGINS";

    // System.Logger as the engine's other classes: SLF4J's first logger configures logback (about 30 ms of a short CLI job)
    private static final System.Logger LOG = System.getLogger(PluginDirectories.class.getName());

    private PluginDirectories() {}

    public static List<Path> resolve(Optional<Path> moverHome, List<Path> explicit) {
        return resolve(moverHome, explicit, System.getenv());
    }

    static List<Path> resolve(Optional<Path> moverHome, List<Path> explicit, Map<String, String> environment) {
        requireNonNull(moverHome, "moverHome is null");
        requireNonNull(explicit, "explicit is null");
        requireNonNull(environment, "environment is null");
        List<Path> candidates = new ArrayList<>(explicit);
        String fromEnvironment = environment.getOrDefault(ENVIRONMENT_VARIABLE, "");
        for (String entry : fromEnvironment.split(File.pathSeparator, -1)) {
            if (!entry.isBlank()) {
                candidates.add(parse(entry.strip()));
            }
        }
        moverHome.ifPresent(home -> candidates.add(home.resolve("plugins")));

        Set<Path> roots = new LinkedHashSet<>();
        for (Path candidate : candidates) {
            Path absolute = candidate.toAbsolutePath().normalize();
            if (Files.isDirectory(absolute)) {
                roots.add(absolute);
            }
            else {
                LOG.log(System.Logger.Level.DEBUG, () -> "plugin directory " + absolute + " does not exist, skipped");
            }
        }
        return List.copyOf(roots);
    }

    private static Path parse(String entry) {
        try {
            return Path.of(entry);
        }
        catch (InvalidPathException e) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, ENVIRONMENT_VARIABLE + " holds an invalid path '" + entry
                    + "': " + e.getReason(), e);
        }
    }
}
