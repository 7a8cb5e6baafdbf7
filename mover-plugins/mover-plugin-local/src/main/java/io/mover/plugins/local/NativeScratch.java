package io.mover.plugins.local;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * The native memory of one file's system calls ({@link LinuxCalls}): the {@code errno} a call leaves, two names
 * and a small block (a {@code statx} buffer, {@code utimensat}'s times, {@code openat2}'s {@code open_how}).
 * {@link LocalKernelCopy} takes one per file and passes it to each call: a confined arena per call cost a
 * malloc, its zeroing, a free and the session's objects, about 12 us of user CPU per file over its ten calls.
 * <p>
 * Blocks come from a bounded pool and go back to it on {@link #close}; one found there full is dropped and
 * freed by the collector (its arena is automatic: a block is never freed while a call holds it, as the
 * {@code errno} segment each call is passed keeps the arena, so the names too, reachable). A block belongs to
 * one thread from {@link #take} to {@link #close} (use it in a try-with-resources); the pool's lock orders one
 * owner's writes before the next one's reads. Each {@link #take} hands out a new holder of the block, closed
 * once whatever its owner does: a second close, even one after the block went to another file, never pools the
 * block twice (two files would then share one {@code errno} and one pair of names).
 */
final class NativeScratch implements AutoCloseable {
    /** {@code PATH_MAX}, its terminating NUL included: the kernel refuses a longer name ({@code ENAMETOOLONG}). */
    static final int NAME_SIZE = 4096;
    /** Enough for a {@code statx} buffer (256 bytes), the largest of the small blocks. */
    static final int DATA_SIZE = 256;
    /**
     * Blocks kept for reuse, 8.5 KiB each: more than the files a job has in flight. Last in, first out: the block
     * taken is the one most recently used, still in the CPU's cache.
     */
    private static final LinkedBlockingDeque<Block> POOL = new LinkedBlockingDeque<>(64);

    /** Where a call leaves {@code errno} ({@code Linker.Option.captureCallState}). */
    final MemorySegment state;
    final MemorySegment data;
    private final Block block;
    /** Set by the first {@link #close}: only that one gives the block back. */
    private final AtomicBoolean closed = new AtomicBoolean();

    /** The native memory itself, pooled; {@link NativeScratch} is one owner's hold on it. */
    private record Block(MemorySegment state, MemorySegment data, MemorySegment first, MemorySegment second) {
        static Block allocate(long errnoSize) {
            Arena arena = Arena.ofAuto();
            return new Block(arena.allocate(errnoSize, 8), arena.allocate(DATA_SIZE, 8), arena.allocate(NAME_SIZE, 8), arena.allocate(NAME_SIZE, 8));
        }
    }

    private NativeScratch(Block block) {
        this.block = block;
        this.state = block.state();
        this.data = block.data();
    }

    /** A block of the pool, or a new one when every pooled block is in use. */
    static NativeScratch take(long errnoSize) {
        Block block = POOL.pollFirst();
        return new NativeScratch(block != null ? block : Block.allocate(errnoSize));
    }

    /** Back to the pool, once; dropped for the collector when the pool is full. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            POOL.offerFirst(block);
        }
    }

    /** The address of {@code name} (a NUL-terminated name from {@link LinuxCalls#nativePath}) copied into the first name; 0 when it is too long. */
    long first(byte[] name) {
        return copy(name, block.first());
    }

    /** As {@link #first}, into the second name: for a call that takes two. */
    long second(byte[] name) {
        return copy(name, block.second());
    }

    private static long copy(byte[] name, MemorySegment to) {
        if (name.length > NAME_SIZE) {
            return 0L;
        }
        MemorySegment.copy(name, 0, to, JAVA_BYTE, 0, name.length);
        return to.address();
    }
}
