package io.mover.plugins.tcp;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledUnsafeDirectByteBuf;

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
        Queue<ByteBuffer> sized = idle.get(size);
        ByteBuffer memory = sized == null ? null : sized.poll();
        if (memory == null) {
            memory = ByteBuffer.allocateDirect(size);
        }
        else {
            idleBytes.addAndGet(-size);
            memory.clear();
        }
        outstanding.incrementAndGet();
        handedOut.incrementAndGet();
        return new Recycled(memory);
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

    /** Netty's direct buffer over memory it does not own (it never frees it): on its last release the memory comes back here. */
    private final class Recycled extends UnpooledUnsafeDirectByteBuf {
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
