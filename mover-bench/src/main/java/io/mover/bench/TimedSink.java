package io.mover.bench;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.stream.Stream;

import io.mover.spi.ConfigSpec;
import io.mover.spi.EndpointInfo;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.SinkWriter;

import static java.util.Objects.requireNonNull;

/**
 * The target's sink with every call timed into {@link OpTimers}: the engine writes through it as it
 * would through the plugin, and the bench learns each operation's latency ({@code create}, each block's
 * {@code write}, {@code commit}, and {@code file-write} from create to commit). A decorator, so the
 * sink's optional abilities (server-side copy, links) are not offered: the bench's source is generated
 * and needs neither.
 */
final class TimedSink implements Sink {
    private final Sink sink;
    private final OpTimers timers;

    TimedSink(Sink sink, OpTimers timers) {
        this.sink = requireNonNull(sink, "sink is null");
        this.timers = requireNonNull(timers, "timers is null");
    }

    /** A factory of the target's scheme that hands out timed sinks. */
    record Factory(SinkFactory factory, OpTimers timers) implements SinkFactory {
        @Override
        public String scheme() {
            return factory.scheme();
        }

        @Override
        public ConfigSpec configSpec() {
            return factory.configSpec();
        }

        @Override
        public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) {
            return new TimedSink(factory.create(uri, config, context), timers);
        }
    }

    @Override
    public EndpointInfo info() {
        return sink.info();
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        return sink.stat(path);
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        return sink.list(directory);
    }

    @Override
    public boolean mkdirs(RelativePath directory) {
        long start = System.nanoTime();
        boolean created = sink.mkdirs(directory);
        timers.record("mkdir", start);
        return created;
    }

    @Override
    public SinkWriter create(RelativePath path, long size, Entry entry) {
        long start = System.nanoTime();
        SinkWriter writer = sink.create(path, size, entry);
        timers.record("create", start);
        return new Writer(writer, start);
    }

    @Override
    public void delete(RelativePath path, boolean recursive) {
        sink.delete(path, recursive);
    }

    @Override
    public void setAttributes(RelativePath path, Entry entry) {
        sink.setAttributes(path, entry);
    }

    @Override
    public int removeStaleTemporaries(RelativePath directory) {
        return sink.removeStaleTemporaries(directory);
    }

    @Override
    public void close() {
        sink.close();
    }

    private final class Writer implements SinkWriter {
        private final SinkWriter writer;
        private final long created;

        Writer(SinkWriter writer, long created) {
            this.writer = writer;
            this.created = created;
        }

        @Override
        public void write(long position, ByteBuffer source) {
            long start = System.nanoTime();
            writer.write(position, source);
            timers.record("write", start);
        }

        @Override
        public Entry commit() {
            long start = System.nanoTime();
            Entry entry = writer.commit();
            timers.record("commit", start);
            timers.record("file-write", created);
            return entry;
        }

        @Override
        public void abort() {
            writer.abort();
        }
    }
}
