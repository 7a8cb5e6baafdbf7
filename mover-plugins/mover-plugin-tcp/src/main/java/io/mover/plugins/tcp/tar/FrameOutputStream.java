package io.mover.plugins.tcp.tar;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import static java.util.Objects.requireNonNull;

/**
 * What lies under the sender's {@code TarArchiveOutputStream}: cuts the tar stream into chunks, compresses
 * each into a frame on {@code workers} threads, and writes the frames to the connection in order on one
 * thread, so reading files, compressing and sending overlap (pigz's model; one frame per chunk is what
 * lets the chunks compress in parallel). At most {@code 2 × workers + 2} chunks exist, which bounds the
 * memory and is the backpressure: a writer waits for a free chunk.
 *
 * <p>Writes come from one thread (the tar stream's pump), {@link #abort} from anywhere. A connection that takes no byte for {@code stallTimeout} is closed
 * ({@code onStall}), and every later call fails.
 */
final class FrameOutputStream extends OutputStream {
    static final int CHUNK_SIZE = 1 << 20;
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final Future<Chunk> END = CompletableFuture.completedFuture(null);

    private final OutputStream connection;
    private final TarFormat format;
    private final ExecutorService compressors;
    private final ThreadLocal<FrameCompressor> compressor;
    private final BlockingQueue<Chunk> free = new LinkedBlockingQueue<>();
    private final BlockingQueue<Future<Chunk>> frames = new LinkedBlockingQueue<>();
    private final int maxChunks;
    private final int maxFrameLength;
    private final Thread sender;
    private final long stallNanos;
    private final Runnable onStall;
    private final AtomicReference<IOException> failure = new AtomicReference<>();
    /** When the socket write in progress started; 0 while none is. */
    private volatile long sendingSince;
    /** Guards the chunk being filled and the count of what was written. */
    private final ReentrantLock producer = new ReentrantLock();
    private int chunks;
    private Chunk current;
    private long rawIn;
    private boolean closed;

    final LongAdder bytesOut = new LongAdder();
    final LongAdder compressNanos = new LongAdder();
    final LongAdder sendNanos = new LongAdder();
    /** Time writers waited for a free chunk: the compressors or the connection set the pace. */
    final LongAdder waitNanos = new LongAdder();

    FrameOutputStream(OutputStream connection, TarFormat format, int workers, Duration stallTimeout, Runnable onStall) {
        this.connection = requireNonNull(connection, "connection is null");
        this.format = requireNonNull(format, "format is null");
        this.stallNanos = stallTimeout.toNanos();
        this.onStall = requireNonNull(onStall, "onStall is null");
        boolean stored = format.compression() == TarFormat.Compression.NONE;
        this.compressors = stored ? null : Executors.newFixedThreadPool(workers, Thread.ofPlatform().daemon().name("mover-tar-compress-", 0).factory());
        this.compressor = ThreadLocal.withInitial(() -> format.compression().newCompressor(format.level()));
        this.maxChunks = stored ? 3 : 2 * workers + 2;
        this.maxFrameLength = stored ? 0 : format.compression().newCompressor(format.level()).maxCompressedLength(CHUNK_SIZE);
        this.sender = Thread.ofPlatform().daemon().name("mover-tar-send").start(this::sendFrames);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        producer.lock();
        try {
            writeLocked(bytes, offset, length);
        }
        finally {
            producer.unlock();
        }
    }

    private void writeLocked(byte[] bytes, int offset, int length) throws IOException {
        while (length > 0) {
            if (current == null) {
                current = takeFree();
            }
            int n = Math.min(length, CHUNK_SIZE - current.rawLength);
            System.arraycopy(bytes, offset, current.raw, current.rawLength, n);
            current.rawLength += n;
            offset += n;
            length -= n;
            rawIn += n;
            if (current.rawLength == CHUNK_SIZE) {
                submit(current);
                current = null;
            }
        }
    }

    /** Bytes of the tar stream written so far: where the next byte goes. */
    long position() {
        producer.lock();
        try {
            return rawIn;
        }
        finally {
            producer.unlock();
        }
    }

    /** Sends what is buffered, waits until the connection took every frame, and flushes it. The connection stays open. */
    @Override
    public void close() throws IOException {
        producer.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (current != null && current.rawLength > 0) {
                submit(current);
                current = null;
            }
            frames.add(END);
        }
        finally {
            producer.unlock();
        }
        try {
            while (sender.isAlive()) {
                checkStall();
                sender.join(Duration.ofNanos(POLL_NANOS));
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the last frames were sent");
        }
        finally {
            shutdownCompressors();
        }
        throwIfFailed();
        connection.flush();
    }

    /** Stops at once: frames not yet sent are dropped. Idempotent, from any thread. */
    void abort(String reason) {
        failure.compareAndSet(null, new IOException(reason));
        sender.interrupt();
        shutdownCompressors();
    }

    /** The failure that stopped the stream, if one did. */
    IOException failure() {
        return failure.get();
    }

    /** Closes a connection that has taken no byte for the stall timeout; called by every waiting loop. */
    void checkStall() {
        long since = sendingSince;
        if (since != 0 && System.nanoTime() - since > stallNanos
                && failure.compareAndSet(null, new IOException("the receiver took no data for " + Duration.ofNanos(stallNanos).toSeconds() + " s"))) {
            onStall.run();
        }
    }

    private Chunk takeFree() throws IOException {
        long start = System.nanoTime();
        try {
            while (true) {
                throwIfFailed();
                Chunk chunk = free.poll();
                if (chunk == null && chunks < maxChunks) {
                    chunks++;
                    chunk = new Chunk(maxFrameLength);
                }
                if (chunk == null) {
                    checkStall();
                    chunk = free.poll(POLL_NANOS, TimeUnit.NANOSECONDS);
                }
                if (chunk != null) {
                    chunk.rawLength = 0;
                    return chunk;
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to send");
        }
        finally {
            waitNanos.add(System.nanoTime() - start);
        }
    }

    private void submit(Chunk chunk) {
        if (compressors == null) {
            frames.add(CompletableFuture.completedFuture(chunk.stored()));
            return;
        }
        frames.add(compressors.submit(() -> {
            long start = System.nanoTime();
            chunk.frameLength = compressor.get().compress(chunk.raw, chunk.rawLength, chunk.frame);
            compressNanos.add(System.nanoTime() - start);
            return chunk;
        }));
    }

    /** The sender thread: frames in the order they were cut, each written whole. */
    private void sendFrames() {
        try {
            while (true) {
                Future<Chunk> next = frames.take();
                if (next == END) {
                    return;
                }
                Chunk chunk = next.get();
                long start = System.nanoTime();
                sendingSince = start;
                connection.write(chunk.frameBytes(), 0, chunk.frameLength);
                sendingSince = 0;
                sendNanos.add(System.nanoTime() - start);
                bytesOut.add(chunk.frameLength);
                free.add(chunk);
            }
        }
        catch (InterruptedException e) {
            failure.compareAndSet(null, new IOException("the tar stream was aborted"));
        }
        catch (ExecutionException e) {
            failure.compareAndSet(null, new IOException("compressing the tar stream failed: " + e.getCause(), e.getCause()));
        }
        catch (IOException | RuntimeException e) {
            failure.compareAndSet(null, e instanceof IOException io ? io : new IOException(e.toString(), e));
        }
        finally {
            sendingSince = 0;
        }
    }

    private void throwIfFailed() throws IOException {
        IOException failed = failure.get();
        if (failed != null) {
            throw new IOException(failed.getMessage(), failed);
        }
    }

    private void shutdownCompressors() {
        if (compressors != null) {
            compressors.shutdownNow();
        }
    }

    /** A chunk of the tar stream and the frame it compresses to. Owned by one thread at a time. */
    private static final class Chunk {
        final byte[] raw = new byte[CHUNK_SIZE];
        /** Empty for plain tar, whose chunks go out as they are. */
        final byte[] frame;
        int rawLength;
        int frameLength;

        Chunk(int maxFrameLength) {
            this.frame = new byte[maxFrameLength];
        }

        Chunk stored() {
            frameLength = rawLength;
            return this;
        }

        byte[] frameBytes() {
            return frame.length == 0 ? raw : frame;
        }
    }
}
