package io.mover.plugins.nfs;

import io.mover.spi.ConfigSpec;
import io.mover.spi.EndpointUri;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;

/** {@code nfs://SERVER[:PORT]/EXPORT/PATH} as a destination; the folder inside the export is created when missing. */
public final class NfsSinkFactory implements SinkFactory {
    @Override
    public String scheme() {
        return "nfs";
    }

    @Override
    public String description() {
        return new NfsSourceFactory().description();
    }

    @Override
    public ConfigSpec configSpec() {
        return NfsOptions.SPEC;
    }

    @Override
    public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) {
        NfsSession session = NfsSession.open(NfsLocation.parse(uri), NfsOptions.from(config));
        try {
            return new NfsSink(session, context.jobKey());
        }
        catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }
}
