package io.mover.bench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.mover.core.engine.CancellationToken;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

/**
 * Reads the files a write phase left, through the target's own source plugin, with {@code concurrency}
 * files in flight, timing {@code open}, each block's {@code read} and {@code file-read}. Each worker
 * thread has one direct buffer of the block size, so reading allocates nothing per file.
 */
final class ReadBack {
    private ReadBack() {}

    static BenchReport.Phase read(Source source, List<RelativePath> files, int concurrency, int blockSize, OpTimers timers,
            CancellationToken cancellation) {
        ThreadLocal<ByteBuffer> buffers = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(blockSize));
        LongAdder bytes = new LongAdder();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency, Thread.ofPlatform().name("bench-read-", 0).daemon().factory());
        long start = System.nanoTime();
        try {
            List<Future<?>> reads = new ArrayList<>(files.size());
            for (RelativePath file : files) {
                reads.add(pool.submit(() -> bytes.add(readFile(source, file, buffers.get(), timers, cancellation))));
            }
            for (Future<?> read : reads) {
                read.get();
            }
            return BenchReport.Phase.of(files.size(), bytes.sum(), System.nanoTime() - start);
        }
        catch (ExecutionException e) {
            throw e.getCause() instanceof MoverException m ? m
                    : new MoverException(ErrorCode.INTERNAL, "reading back failed: " + e.getCause(), e.getCause());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "the bench was interrupted while reading back");
        }
        finally {
            pool.shutdownNow();
            try {
                pool.awaitTermination(30, TimeUnit.SECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static long readFile(Source source, RelativePath file, ByteBuffer buffer, OpTimers timers, CancellationToken cancellation) {
        if (cancellation.isCancelled()) {
            throw new MoverException(ErrorCode.CANCELLED, "the bench was cancelled");
        }
        long opened = System.nanoTime();
        try (SourceReader reader = source.open(file)) {
            timers.record("open", opened);
            long position = 0;
            long size = reader.size();
            while (position < size) {
                buffer.clear();
                long start = System.nanoTime();
                int n = reader.read(position, buffer);
                timers.record("read", start);
                if (n == 0) {
                    throw new MoverException(ErrorCode.IO_ERROR, file + " ended at " + position + " of " + size + " bytes while it was read back");
                }
                position += n;
            }
            timers.record("file-read", opened);
            return position;
        }
    }
}
