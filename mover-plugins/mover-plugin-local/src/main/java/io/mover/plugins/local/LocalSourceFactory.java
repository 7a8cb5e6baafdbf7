package io.mover.plugins.local;

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
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

public final class LocalSourceFactory implements SourceFactory {
    static final ConfigKey FOLLOW_SYMLINKS = ConfigKey.optional("follow-symlinks", ConfigType.BOOLEAN, "false",
            "List what symbolic links point to instead of the links themselves (links to an ancestor directory are still reported as links, so a loop cannot recurse).");

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
        return ConfigSpec.of(FOLLOW_SYMLINKS);
    }

    @Override
    public Source create(EndpointUri uri, PluginConfig config, PluginContext context) {
        Path root = Path.of(uri.path());
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            throw new MoverException(ErrorCode.NOT_FOUND, "source " + root + " does not exist; check the path");
        }
        if (!Files.isReadable(root)) {
            throw new MoverException(ErrorCode.PERMISSION_DENIED, "source " + root + " is not readable; check its owner and mode");
        }
        return new LocalSource(root, config.bool(FOLLOW_SYMLINKS.name()).orElse(false));
    }
}
