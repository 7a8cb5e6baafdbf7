package io.mover.plugins.local;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.LinkedBlockingDeque;

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
 * one thread from {@link #take} to {@link #close} (use it in a try-with-resources, close it once); the pool's
 * lock orders one owner's writes before the next one's reads.
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
    private static final LinkedBlockingDeque<NativeScratch> POOL = new LinkedBlockingDeque<>(64);

    /** Where a call leaves {@code errno} ({@code Linker.Option.captureCallState}). */
    final MemorySegment state;
    final MemorySegment data;
    private final MemorySegment first;
    private final MemorySegment second;

    private NativeScratch(long errnoSize) {
        Arena arena = Arena.ofAuto();
        this.state = arena.allocate(errnoSize, 8);
        this.data = arena.allocate(DATA_SIZE, 8);
        this.first = arena.allocate(NAME_SIZE, 8);
        this.second = arena.allocate(NAME_SIZE, 8);
    }

    /** A block of the pool, or a new one when every pooled block is in use. */
    static NativeScratch take(long errnoSize) {
        NativeScratch scratch = POOL.pollFirst();
        return scratch != null ? scratch : new NativeScratch(errnoSize);
    }

    /** Back to the pool; dropped for the collector when the pool is full. */
    @Override
    public void close() {
        POOL.offerFirst(this);
    }

    /** The address of {@code name} (a NUL-terminated name from {@link LinuxCalls#nativePath}) copied into the first name; 0 when it is too long. */
    long first(byte[] name) {
        return copy(name, first);
    }

    /** As {@link #first}, into the second name: for a call that takes two. */
    long second(byte[] name) {
        return copy(name, second);
    }

    private static long copy(byte[] name, MemorySegment to) {
        if (name.length > NAME_SIZE) {
            return 0L;
        }
        MemorySegment.copy(name, 0, to, JAVA_BYTE, 0, name.length);
        return to.address();
    }
}
