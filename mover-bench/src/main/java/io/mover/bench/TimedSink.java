package io.mover.bench;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import io.mover.spi.BlockHeader;
import io.mover.spi.ConfigSpec;
import io.mover.spi.EncodedBlockWriter;
import io.mover.spi.EndpointInfo;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.LinkSink;
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
 * {@code write}, {@code commit}, and {@code file-write} from create to commit). A decorator: server-side
 * copy is not offered (the bench's source is generated), but a link's abilities are ({@link LinkSink},
 * {@link EncodedBlockWriter}), so that a tcp:// target is measured as {@code mover copy} uses it: encoded
 * blocks sent, decoded and written at the far end, {@code --codec auto} measuring the link.
 */
class TimedSink implements Sink {
    private final Sink sink;
    private final OpTimers timers;

    private TimedSink(Sink sink, OpTimers timers) {
        this.sink = requireNonNull(sink, "sink is null");
        this.timers = requireNonNull(timers, "timers is null");
    }

    /** {@code sink} timed, with its link abilities when it has them. */
    static Sink of(Sink sink, OpTimers timers) {
        return sink instanceof LinkSink link ? new Linked(sink, link, timers) : new TimedSink(sink, timers);
    }

    /** A link's sink: its codec list and load pass through. */
    private static final class Linked extends TimedSink implements LinkSink {
        private final LinkSink link;

        Linked(Sink sink, LinkSink link, OpTimers timers) {
            super(sink, timers);
            this.link = link;
        }

        @Override
        public Set<Byte> decodableCodecs() {
            return link.decodableCodecs();
        }

        @Override
        public Load load() {
            return link.load();
        }
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
            return TimedSink.of(factory.create(uri, config, context), timers);
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
        return writer instanceof EncodedBlockWriter encoded ? new EncodedWriter(writer, encoded, start) : new Writer(writer, start);
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

    private class Writer implements SinkWriter {
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

        /** Passed on: the writer may leave a hole for zeros it need not check. */
        @Override
        public void writeZeros(long position, int length) {
            long start = System.nanoTime();
            writer.writeZeros(position, length);
            timers.record("write", start);
        }

        /** Passed on: a bench writes fresh files, but a wrapper must not hide what the writer kept. */
        @Override
        public boolean holds(long position, int length, int crc32c) {
            return writer.holds(position, length, crc32c);
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

    /** A link's writer: encoded blocks are timed as {@code write}s too (each is a block sent). */
    private final class EncodedWriter extends Writer implements EncodedBlockWriter {
        private final EncodedBlockWriter encoded;

        EncodedWriter(SinkWriter writer, EncodedBlockWriter encoded, long created) {
            super(writer, created);
            this.encoded = encoded;
        }

        @Override
        public void writeEncoded(long position, BlockHeader header, ByteBuffer payload) {
            long start = System.nanoTime();
            encoded.writeEncoded(position, header, payload);
            timers.record("write", start);
        }
    }
}
