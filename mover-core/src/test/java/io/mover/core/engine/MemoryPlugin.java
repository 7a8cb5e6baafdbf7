package io.mover.core.engine;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

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
    private final AtomicInteger sinksOpened = new AtomicInteger();

    public MemoryStore store(String name) {
        return stores.computeIfAbsent(name, n -> new MemoryStore());
    }

    /** How many times a {@code mem://} destination was opened (each job's part that writes opens its own). */
    public int sinksOpened() {
        return sinksOpened.get();
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
        return List.of(io.mover.core.codec.DeflateTestCodec.FACTORY);
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
                sinksOpened.incrementAndGet();
                return store(uri.authority());
            }
        });
    }
}
