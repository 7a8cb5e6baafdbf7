package io.mover.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;

import io.mover.core.engine.CancellationToken;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * One fio-like job: {@code depth} threads, each doing blocking positional I/O of {@code block} bytes
 * for {@code nanos}, like fio's {@code ioengine=psync} with {@code numjobs=depth}. Worker {@code k}
 * owns the k-th slice of the file (fio's {@code offset_increment}), so sequential workers stream their
 * own region and concurrent writes never overlap; random workers pick aligned blocks in their slice.
 * Each thread records into its own histogram (no shared counter on the hot path); they are added up
 * at the end. Each thread also measures its own CPU time (user + system, as fio's {@code usr_cpu} and
 * {@code sys_cpu} of a job): operations per CPU-second do not depend on how much of a shared machine
 * the workers were given, which MiB/s and IOPS do.
 */
final class IoWorkers {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** A JVM may lack per-thread CPU clocks (then it answers -1): the point then has no CPU time rather than a wrong one. */
    private static final boolean CPU_TIME = THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();

    /** One positional operation: read or write {@code buffer} at {@code position}. */
    @FunctionalInterface
    interface Operation {
        void run(long position, ByteBuffer buffer);
    }

    private IoWorkers() {}

    static BenchReport.IoPoint run(String pattern, boolean random, int block, int depth, long fileSize, long nanos, Operation operation,
            CancellationToken cancellation) {
        long slice = fileSize / depth / block * block;
        List<Thread> threads = new ArrayList<>();
        List<Histogram> histograms = new ArrayList<>();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        LongAdder cpuNanos = new LongAdder();
        long start = System.nanoTime();
        long deadline = start + nanos;
        for (int k = 0; k < depth; k++) {
            Histogram histogram = new Histogram(3);
            histograms.add(histogram);
            long base = k * slice;
            long seed = 31L * k + block;
            threads.add(Thread.ofPlatform().name("bench-io-" + k).daemon().start(() -> {
                long cpuStart = THREADS.getCurrentThreadCpuTime();
                try {
                    work(random, block, base, slice, deadline, seed, operation, histogram, cancellation);
                }
                catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
                finally {
                    cpuNanos.add(THREADS.getCurrentThreadCpuTime() - cpuStart);
                }
            }));
        }
        for (Thread thread : threads) {
            try {
                thread.join();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancellation.cancel();
            }
        }
        long elapsed = System.nanoTime() - start;
        if (failure.get() != null) {
            throw failure.get();
        }
        if (cancellation.isCancelled()) {
            throw new MoverException(ErrorCode.CANCELLED, "the bench was cancelled");
        }
        Histogram total = new Histogram(3);
        histograms.forEach(total::add);
        double seconds = elapsed / 1e9;
        long ops = total.getTotalCount();
        return new BenchReport.IoPoint(pattern, block, depth, ops, seconds, ops * (double) block / seconds / (1 << 20), ops / seconds,
                CPU_TIME ? cpuNanos.sum() / 1e9 : null, OpTimers.latency(pattern, total));
    }

    private static void work(boolean random, int block, long base, long slice, long deadline, long seed, Operation operation,
            Histogram histogram, CancellationToken cancellation) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(block);
        // what is written is random (a compressing or deduplicating target must not get it for free)
        SplittableRandom generator = new SplittableRandom(seed);
        while (buffer.remaining() >= Long.BYTES) {
            buffer.putLong(generator.nextLong());
        }
        long blocks = slice / block;
        long next = 0;
        long now = System.nanoTime();
        // at least one operation per worker, so that a late-starting thread on a busy machine still counts
        for (long done = 0; done == 0 || now < deadline; done++) {
            if ((done & 255) == 0 && cancellation.isCancelled()) {
                return;
            }
            long index = random ? generator.nextLong(blocks) : next;
            next = next + 1 == blocks ? 0 : next + 1;
            buffer.clear();
            operation.run(base + index * block, buffer);
            long end = System.nanoTime();
            histogram.recordValue(Math.max(1, end - now));
            now = end;
        }
    }
}
