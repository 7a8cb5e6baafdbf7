package io.mover.server.config;

import java.nio.file.Path;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The server's settings, prefix {@code mover}.
 *
 * @param address the address to bind; {@code application.properties} hands it to {@code server.address}.
 *        Loopback by default: off loopback the server refuses to start without tokens.
 * @param port the HTTP port, handed to {@code server.port}
 * @param dataDir where the server keeps its state (job scratch space now, the job store later);
 *        {@code ~/.mover} by default, so a server and the CLI of one user share it and a working
 *        directory that changes between runs does not lose it
 * @param tokens bearer tokens; empty means no authentication (allowed on loopback only)
 * @param pluginDirs extra folders holding {@code plugins/<name>/} directories, searched with
 *        {@code $MOVER_PLUGINS} and {@code <mover home>/plugins}
 */
@ConfigurationProperties("mover")
public record MoverProperties(@DefaultValue("127.0.0.1") String address, @DefaultValue("8080") int port, Path dataDir,
        List<ApiToken> tokens, List<Path> pluginDirs) {
    public MoverProperties {
        dataDir = dataDir == null ? Path.of(System.getProperty("user.home"), ".mover") : dataDir;
        dataDir = dataDir.toAbsolutePath().normalize();
        tokens = tokens == null ? List.of() : List.copyOf(tokens);
        pluginDirs = pluginDirs == null ? List.of() : List.copyOf(pluginDirs);
    }

    /** Scratch space of running jobs; each job's folder is removed when it ends. */
    public Path scratchDir() {
        return dataDir.resolve("scratch");
    }
}
