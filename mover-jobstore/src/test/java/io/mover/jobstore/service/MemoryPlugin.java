package io.mover.jobstore.service;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.MoverPlugin;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.Source;
import io.mover.spi.SourceFactory;

/** Serves {@code mem://<store>} locations from named {@link MemoryStore}s, for engine tests. */
public final class MemoryPlugin implements MoverPlugin {
    final Map<String, MemoryStore> stores = new ConcurrentHashMap<>();

    public MemoryStore store(String name) {
        return stores.computeIfAbsent(name, n -> new MemoryStore());
    }

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public String version() {
        return "test";
    }

    @Override
    public List<SourceFactory> sourceFactories() {
        return List.of(new SourceFactory() {
            @Override
            public String scheme() {
                return "mem";
            }

            @Override
            public Source create(EndpointUri uri, PluginConfig config, PluginContext context) {
                MemoryStore store = stores.get(uri.authority());
                if (store == null) {
                    throw new MoverException(ErrorCode.NOT_FOUND, "no store " + uri.authority());
                }
                return store;
            }
        });
    }

    @Override
    public List<CodecFactory> codecFactories() {
        return List.of();
    }

    @Override
    public List<SinkFactory> sinkFactories() {
        return List.of(new SinkFactory() {
            @Override
            public String scheme() {
                return "mem";
            }

            @Override
            public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) {
                return store(uri.authority());
            }
        });
    }
}
