package io.mover.plugins.nfs;

import io.mover.spi.ConfigSpec;
import io.mover.spi.EndpointUri;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

/** {@code nfs://SERVER[:PORT]/EXPORT/PATH} as a source. */
public final class NfsSourceFactory implements SourceFactory {
    @Override
    public String scheme() {
        return "nfs";
    }

    @Override
    public String description() {
        return "NFSv3 exports through mover's own multi-connection client (no mount, no root): nfs://SERVER[:PORT][,SERVER...]/EXPORT/PATH";
    }

    @Override
    public ConfigSpec configSpec() {
        return NfsOptions.SOURCE_SPEC;
    }

    @Override
    public Source create(EndpointUri uri, PluginConfig config, PluginContext context) {
        NfsOptions options = NfsOptions.from(config);
        NfsSession session = NfsSession.open(NfsLocation.parse(uri), options);
        try {
            return new NfsSource(session, options, config.bool(NfsOptions.FOLLOW_SYMLINKS.name()).orElse(false));
        }
        catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }
}
