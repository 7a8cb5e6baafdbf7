package com.example.mover.checksums;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.mover.spi.ConfigKey;
import io.mover.spi.ConfigSpec;
import io.mover.spi.ConfigType;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;

/** {@code example:///path/to/store}: a local tree with a SHA-256 sidecar per file. Stateless and thread-safe. */
public final class ChecksumSinkFactory implements SinkFactory {
    static final ConfigKey FSYNC = ConfigKey.optional("fsync", ConfigType.BOOLEAN, "false",
            "Flush each file and its checksum to stable storage before they are renamed into place.");

    @Override
    public String scheme() {
        return "example";
    }

    @Override
    public String description() {
        return "example store: files under a local root, each with a .checksums/<path>.sha256 sidecar";
    }

    @Override
    public ConfigSpec configSpec() {
        return ConfigSpec.of(FSYNC);
    }

    @Override
    public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) {
        Path root = Path.of(uri.path()).toAbsolutePath().normalize();
        if (Files.exists(root) && !Files.isDirectory(root)) {
            throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "example store " + root + " is a file; name a directory");
        }
        try {
            Files.createDirectories(root);
        }
        catch (IOException e) {
            throw IoFailures.map(e, "create the store", root);
        }
        return new ChecksumSink(root, context.jobKey(), config.bool(FSYNC.name()).orElse(false));
    }
}
