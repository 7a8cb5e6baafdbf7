package io.mover.core.engine;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

import io.mover.core.codec.DeflateTestCodec;
import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.MoverPlugin;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;
import io.mover.spi.SinkWriter;
import io.mover.spi.SourceFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A writer that holds blocks from an earlier run ({@link SinkWriter#holds}): the engine reads and checksums
 * them but neither encodes nor writes them, and the file still ends byte for byte the source's.
 */
final class KeptBlocksTest {
    private static final int BLOCK = 4096;
    private static final int BLOCKS = 64;

    @TempDir
    private Path scratch;

    private final MemoryPlugin memory = new MemoryPlugin();
    private final MemoryStore src = memory.store("src");
    private final MemoryStore dst = memory.store("dst");
    private final AtomicInteger compressions = new AtomicInteger();
    private final AtomicLong compressedRaw = new AtomicLong();
    private final AtomicInteger writes = new AtomicInteger();
    /** What the destination's partial holds before the run, by block index: the bytes an earlier run left. */
    private final Map<Integer, byte[]> partial = new ConcurrentHashMap<>();

    @Test
    void keptBlocksAreNeitherEncodedNorWrittenAndTheFileIsWhole() {
        StringBuilder text = new StringBuilder();
        Random random = new Random(7);
        for (int line = 0; text.length() < BLOCKS * BLOCK + 123; line++) {
            text.append("line ").append(line).append(" of a log that compresses: ").append(random.nextInt(1000)).append('\n');
        }
        byte[] data = java.util.Arrays.copyOf(text.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII), BLOCKS * BLOCK + 123);
        src.file("big.bin", data, Instant.parse("2026-01-01T00:00:00Z"));
        for (int block = 0; block < 40; block++) {
            partial.put(block, java.util.Arrays.copyOfRange(data, block * BLOCK, (block + 1) * BLOCK));
        }
        // a block the partial holds with other bytes (the source changed there, or it was torn): written again
        byte[] stale = partial.get(7).clone();
        stale[100] ^= 1;
        partial.put(7, stale);

        JobSummary summary = copy();

        assertThat(summary.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(dst.data("big.bin")).isEqualTo(data);
        int encodedBlocks = BLOCKS + 1 - 39; // 24 fresh blocks, the tail, and block 7
        assertThat(compressions).as("blocks run through the codec").hasValue(encodedBlocks);
        assertThat(writes).as("blocks written").hasValue(encodedBlocks);
        assertThat(compressedRaw).hasValue(data.length - 39L * BLOCK);
        StageStats encode = summary.stages().stream().filter(s -> s.stage() == Stage.ENCODE).findFirst().orElseThrow();
        StageStats read = summary.stages().stream().filter(s -> s.stage() == Stage.READ).findFirst().orElseThrow();
        assertThat(encode.bytes()).isEqualTo(data.length - 39L * BLOCK);
        assertThat(read.bytes()).as("every block is read: that is how a kept one is proven the source's").isEqualTo(data.length);
        assertThat(summary.bytesTransferred()).isEqualTo(data.length);
    }

    private JobSummary copy() {
        TransferEngine engine = new TransferEngine(PluginRegistry.of(List.of(memory, keeping()), "test"), Clock.systemUTC());
        TransferOptions options = TransferOptions.builder().blockSize(BLOCK).largeFiles(64 * 1024, 16 * 1024).bufferPoolBytes(1 << 20)
                .retries(1, Duration.ofMillis(1)).codec("counting").build();
        PreparedJob job = engine.prepare(JobSpec.copy("mem://src", "keep://dst", options), "job1", scratch);
        try {
            return engine.run(job, JobListener.NONE, new CancellationToken());
        }
        finally {
            job.close();
        }
    }

    /** Plugin {@code keep}: the memory store "dst", whose writers start from {@link #partial}; and codec {@code counting}. */
    private MoverPlugin keeping() {
        Sink sink = (Sink) java.lang.reflect.Proxy.newProxyInstance(Sink.class.getClassLoader(), new Class<?>[] {Sink.class},
                (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(dst, args);
                    }
                    catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                    return method.getName().equals("create") ? new Keeping((SinkWriter) result) : result;
                });
        CodecFactory counting = new CodecFactory() {
            public String name() { return "counting"; }
            public byte wireId() { return 101; }
            public Codec create(int level) { return new Counting(DeflateTestCodec.FACTORY.create(1)); }
        };
        return new MoverPlugin() {
            public String name() { return "keep"; }
            public String version() { return "test"; }
            public List<SourceFactory> sourceFactories() { return List.of(); }
            public List<CodecFactory> codecFactories() { return List.of(counting); }
            public List<SinkFactory> sinkFactories() {
                return List.of(new SinkFactory() {
                    public String scheme() { return "keep"; }
                    public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) { return sink; }
                });
            }
        };
    }

    /** A memory writer that already holds the partial's blocks, and answers {@link #holds} for them. */
    private final class Keeping implements SinkWriter {
        private final SinkWriter writer;

        Keeping(SinkWriter writer) {
            this.writer = writer;
            partial.forEach((block, bytes) -> writer.write((long) block * BLOCK, ByteBuffer.wrap(bytes)));
        }

        @Override
        public boolean holds(long position, int length, int crc32c) {
            byte[] bytes = position % BLOCK == 0 ? partial.get((int) (position / BLOCK)) : null;
            if (bytes == null || bytes.length != length) {
                return false;
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes);
            return (int) crc.getValue() == crc32c;
        }

        @Override
        public void write(long position, ByteBuffer source) {
            writes.incrementAndGet();
            writer.write(position, source);
        }

        @Override
        public Entry commit() {
            return writer.commit();
        }

        @Override
        public void abort() {
            writer.abort();
        }
    }

    /** Counts what reaches the codec. */
    private final class Counting implements Codec {
        private final Codec codec;

        Counting(Codec codec) {
            this.codec = codec;
        }

        public String name() { return "counting"; }
        public byte wireId() { return 101; }
        public int maxCompressedLength(int inputLength) { return codec.maxCompressedLength(inputLength); }

        public int compress(ByteBuffer input, ByteBuffer output) {
            compressions.incrementAndGet();
            compressedRaw.addAndGet(input.remaining());
            return codec.compress(input, output);
        }

        public int decompress(ByteBuffer input, ByteBuffer output, int rawLength) {
            return codec.decompress(input, output, rawLength);
        }
    }
}
