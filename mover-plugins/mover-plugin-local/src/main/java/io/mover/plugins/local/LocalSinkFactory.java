package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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

public final class LocalSinkFactory implements SinkFactory {
    static final ConfigKey FSYNC = ConfigKey.optional("fsync", ConfigType.BOOLEAN, "false",
            "Flush each file to stable storage before it is renamed into place (slower; survives a power loss, not only a crash of mover).");
    static final ConfigKey SPARSE = ConfigKey.optional("sparse", ConfigType.BOOLEAN, "false",
            "Leave blocks of zeros unwritten (holes) in new files, as cp --sparse=always does: the same bytes, less disk and CPU, but no disk space reserved for them.");

    @Override
    public String scheme() {
        return "file";
    }

    @Override
    public String description() {
        return "local disks and mounted shares (file:///path or a plain path)";
    }

    @Override
    public ConfigSpec configSpec() {
        return ConfigSpec.of(FSYNC, SPARSE);
    }

    @Override
    public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) {
        Path root = Path.of(uri.path()).toAbsolutePath().normalize();
        if (Files.exists(root) && !Files.isDirectory(root)) {
            throw new MoverException(ErrorCode.NOT_A_DIRECTORY, "destination " + root + " is a file, not a directory; name a directory");
        }
        try {
            if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(root)) {
                Files.createDirectories(root);
            }
        }
        catch (IOException e) {
            throw IoErrors.map(e, "create the destination directory", root);
        }
        if (!Files.isWritable(root)) {
            throw new MoverException(ErrorCode.PERMISSION_DENIED, "destination " + root + " is not writable; check its owner and mode");
        }
        return new LocalSink(root, context.jobKey(), config.bool(FSYNC.name()).orElse(false), config.bool(SPARSE.name()).orElse(false));
    }
}
