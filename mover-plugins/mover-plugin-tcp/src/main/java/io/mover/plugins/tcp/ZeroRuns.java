package io.mover.plugins.tcp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link PeerWriter}'s blocks of zeros held back so that adjacent ones cross as one block of zeros of up to
 * {@link #MAX_RUN} bytes: each block is a request, a reply and an event-loop hand-off at both ends (about 0.2 s of
 * CPU a side per GiB of zeros in 1 MiB blocks, past start-up the largest cost left; docs/benchmarks.md). Every
 * receiver that takes blocks of zeros takes one of any length up to 32 MiB ({@code Decoders.MAX_RAW_BLOCK}), so the
 * wire does not change. A range's blocks come in order from one thread: a block of zeros joins the run ending where
 * it starts; the block of data that follows a run in its range, a run grown full, and the commit send it. Runs
 * are keyed by their end, one per range at most. Thread-safe.
 */
final class ZeroRuns {
    /** Half the receiver's limit on a block: a run fits whatever the engine's block size (up to 16 MiB) added last. */
    static final int MAX_RUN = 16 << 20;

    /** Zeros from {@code position}, {@code length} bytes. */
    record Run(long position, int length) {
        long end() {
            return position + length;
        }
    }

    /** Guarded by this. */
    private final Map<Long, Run> byEnd = new HashMap<>();

    /** Adds a block of zeros; returns the runs to send now: one grown full, or one this block could not join. */
    synchronized List<Run> add(long position, int length) {
        List<Run> ready = new ArrayList<>(2);
        Run run = byEnd.remove(position);
        if (run != null && (long) run.length() + length <= MAX_RUN) {
            run = new Run(run.position(), run.length() + length);
        }
        else {
            if (run != null) {
                ready.add(run);
            }
            run = new Run(position, length);
        }
        if (run.length() >= MAX_RUN) {
            ready.add(run);
        }
        else {
            byEnd.put(run.end(), run);
        }
        return ready;
    }

    /** The run that ends at {@code position}, where a block of data follows it: to send now. */
    synchronized Optional<Run> endingAt(long position) {
        return byEnd.isEmpty() ? Optional.empty() : Optional.ofNullable(byEnd.remove(position));
    }

    /** Every run held, to send before the commit; none are held afterwards. */
    synchronized List<Run> drain() {
        List<Run> all = new ArrayList<>(byEnd.values());
        byEnd.clear();
        return all;
    }
}
