package io.mover.core.codec;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/** The blocks each candidate of {@code --codec auto} carried, and those that went as zeros, for the summary. Thread-safe. */
final class BlockTally {
    private final List<AutoChoice.Candidate> candidates;
    private final AtomicLongArray blocks;
    /** Blocks that went as zeros (BlockHeader.ZEROS), which no candidate encoded. */
    private final AtomicLong zeroBlocks = new AtomicLong();

    BlockTally(List<AutoChoice.Candidate> candidates) {
        this.candidates = List.copyOf(candidates);
        this.blocks = new AtomicLongArray(candidates.size());
    }

    void used(int index) {
        blocks.incrementAndGet(index);
    }

    void zeroBlock() {
        zeroBlocks.incrementAndGet();
    }

    /** {@code lz4 40%, zstd:1 60%}: each candidate's share of the blocks, zeros last; {@code none sent} before any. */
    String shares() {
        StringBuilder used = new StringBuilder();
        long zeros = zeroBlocks.get();
        long total = zeros;
        for (int i = 0; i < candidates.size(); i++) {
            total += blocks.get(i);
        }
        for (int i = 0; i < candidates.size(); i++) {
            if (blocks.get(i) > 0) {
                used.append(used.isEmpty() ? "" : ", ").append(candidates.get(i).label()).append(' ')
                        .append(AutoCodec.percent((double) blocks.get(i) / Math.max(1, total)));
            }
        }
        if (zeros > 0) {
            used.append(used.isEmpty() ? "" : ", ").append("zeros ").append(AutoCodec.percent((double) zeros / total));
        }
        return used.isEmpty() ? "none sent" : used.toString();
    }
}
