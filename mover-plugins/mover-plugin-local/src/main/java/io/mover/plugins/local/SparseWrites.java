package io.mover.plugins.local;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;

/**
 * Leaves a block of zeros unwritten in a temporary its writer created: the file reads zeros wherever nothing
 * was written, so the block's bytes are there without the copy into the page cache and the disk write (1 GiB of
 * zeros received over TCP: the receiver's {@code pwrite} was most of its CPU; issue 5). lz4 and zstd do the same
 * when they decompress into a file. Only where nothing was written yet: a range this writer filled with bytes
 * is written again as asked, zeros or not, so a retry over it never leaves the old bytes. The file's size is made
 * whole at commit ({@link #end()}). Thread-safe.
 */
final class SparseWrites {
    /** Compared against in slices: a block of random bytes differs at its first bytes, so its check costs nothing. */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 << 10).asReadOnlyBuffer();

    /** Ranges written with bytes, disjoint and merged where they touch (start to end); guarded by this. */
    private final TreeMap<Long, Long> written = new TreeMap<>();
    /** The end of the furthest block left out; guarded by this. */
    private long end;

    /** Whether every remaining byte of {@code source} is zero; its position is left as it was. */
    static boolean zeros(ByteBuffer source) {
        int position = source.position();
        int limit = source.limit();
        for (int at = position; at < limit; at += ZEROS.capacity()) {
            int length = Math.min(ZEROS.capacity(), limit - at);
            if (source.slice(at, length).mismatch(ZEROS.slice(0, length)) >= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the {@code length} bytes at {@code position}, all zeros, may be left out: true when nothing was
     * written over any of them. The caller writes them when false, and calls {@link #wrote} for bytes it writes.
     */
    synchronized boolean leaveOut(long position, int length) {
        long blockEnd = position + length;
        Map.Entry<Long, Long> before = written.lowerEntry(blockEnd);
        if (before != null && before.getValue() > position) {
            return false;
        }
        end = Math.max(end, blockEnd);
        return true;
    }

    /** Records that {@code length} bytes at {@code position} were written. */
    synchronized void wrote(long position, long length) {
        long start = position;
        long stop = position + length;
        Map.Entry<Long, Long> before = written.floorEntry(start);
        if (before != null && before.getValue() >= start) {
            start = before.getKey();
            stop = Math.max(stop, before.getValue());
        }
        // every range starting inside [start, stop] joins this one; bounded by the map's size
        for (Map.Entry<Long, Long> next = written.ceilingEntry(start); next != null && next.getKey() <= stop; next = written.ceilingEntry(start)) {
            stop = Math.max(stop, next.getValue());
            written.remove(next.getKey());
        }
        written.put(start, stop);
    }

    /** The end of the furthest block left out: the file must be at least this long at commit. */
    synchronized long end() {
        return end;
    }
}
