package io.mover.plugins.tcp;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;

/**
 * The receiver's block-sized direct buffers (a BLOCK frame as it arrives, a block as it is decoded), kept for reuse
 * once released. Netty's pooled allocator served them from 4 MiB chunks that it freed as soon as they emptied, which
 * a few 1 MiB blocks in flight do all the time: every new chunk was a fresh {@code ByteBuffer.allocateDirect}, zeroed
 * by the JDK and page-faulted in, 8% of the receiver's CPU in a profile (docs/benchmarks.md, the TCP peer). Buffers
 * come in steps of {@link #GRAIN}; at most {@code maxIdleBytes} wait for reuse, and any beyond are left to the
 * garbage collector. Thread-safe: taken on event loops, released on workers.
 */
final class BlockBuffers {
    /** Sizes are rounded up to this step, so blocks of one size share buffers whatever their frame's few extra bytes. */
    static final int GRAIN = 256 << 10;
    /** Idle bytes a receiver keeps: about the default window's blocks for four streams, with their decoded copies. */
    static final long DEFAULT_MAX_IDLE = 64L << 20;

    /** How many steps larger an idle buffer may be than the size asked for (a 1 MiB block takes up to 2 MiB). */
    static final int LARGER_STEPS = 4;

    private final long maxIdleBytes;
    private final Map<Integer, Queue<ByteBuffer>> idle = new ConcurrentHashMap<>();
    private final AtomicLong idleBytes = new AtomicLong();
    /** Buffers handed out and not yet released: what a test checks to find a block never released. */
    private final AtomicLong outstanding = new AtomicLong();
    /** Buffers handed out so far: a test counts one per large frame. */
    private final AtomicLong handedOut = new AtomicLong();

    BlockBuffers(long maxIdleBytes) {
        this.maxIdleBytes = maxIdleBytes;
    }

    /** A direct buffer of at least {@code capacity} bytes (and no more than it can hold), empty; the caller releases it. */
    ByteBuf allocate(int capacity) {
        int size = Math.toIntExact((capacity + (long) GRAIN - 1) / GRAIN * GRAIN);
        ByteBuffer memory = idle(size);
        if (memory == null) {
            memory = ByteBuffer.allocateDirect(size);
        }
        else {
            idleBytes.addAndGet(-memory.capacity());
            memory.clear();
        }
        outstanding.incrementAndGet();
        handedOut.incrementAndGet();
        return new Recycled(memory);
    }

    /**
     * An idle buffer of {@code size}, or else of a few steps more: compressed blocks vary in size, and buffers kept
     * in sizes no longer asked for would otherwise fill the idle bound while every other size is allocated afresh.
     */
    private ByteBuffer idle(int size) {
        for (int step = 0; step <= LARGER_STEPS; step++) {
            Queue<ByteBuffer> sized = idle.get(size + step * GRAIN);
            ByteBuffer memory = sized == null ? null : sized.poll();
            if (memory != null) {
                return memory;
            }
        }
        return null;
    }

    long outstanding() {
        return outstanding.get();
    }

    long handedOut() {
        return handedOut.get();
    }

    long idleBytes() {
        return idleBytes.get();
    }

    private void recycle(ByteBuffer memory) {
        outstanding.decrementAndGet();
        int size = memory.capacity();
        if (idleBytes.addAndGet(size) > maxIdleBytes) {
            idleBytes.addAndGet(-size);
            return;
        }
        idle.computeIfAbsent(size, key -> new ConcurrentLinkedQueue<>()).add(memory);
    }

    /**
     * Netty's direct buffer over memory it does not own (it never frees it): on its last release the memory comes back
     * here. The plain one, not the {@code Unsafe} one: that needs {@code sun.misc.Unsafe}, which a JVM may deny.
     */
    private final class Recycled extends UnpooledDirectByteBuf {
        private final ByteBuffer memory;

        Recycled(ByteBuffer memory) {
            super(UnpooledByteBufAllocator.DEFAULT, memory, memory.capacity());
            this.memory = memory;
            // wrapping takes the buffer's position and limit as the readable bytes: a new buffer starts empty
            clear();
        }

        @Override
        protected void deallocate() {
            super.deallocate();
            recycle(memory);
        }
    }
}
