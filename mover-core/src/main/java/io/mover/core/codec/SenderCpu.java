package io.mover.core.codec;

/**
 * The sender's CPU for {@code --codec auto} ({@link AutoChoice}): its time per raw byte spent outside compression
 * (reading files, checksumming, the kernel's TCP, in a bench the receiver), seen when the sender sets the pace. The
 * raw rate R with the current codec then gives that overhead, {@code 1/R − compression time per byte}, and every
 * codec's CPU rate is 1 ÷ (overhead + its own compression time per byte). An overhead per byte rather than a share
 * of the cores: it stays when the codec gets faster, so a job bound by a slow source sees little gain in a faster
 * codec and keeps its ratio. Not thread-safe (AutoChoice holds its lock).
 */
final class SenderCpu {
    private static final double SMOOTHING = 0.3;
    /** Seconds per raw byte spent outside compression when the sender sets the pace; 0 until seen. */
    private double overhead;
    private boolean measured;

    /**
     * {@code rawPerSecond} achieved with a codec that compresses in {@code compressionTime} seconds a raw byte. When the
     * sender set the pace ({@code bound}) that rate is all its CPU gives. When the link or the far end did, the CPU gave
     * that at least, with time to spare: the overhead is below what the rate implies, by a margin the rate cannot tell.
     * An estimate above that bound was measured under something else (the job's ramp-up, cold code, the receiver's
     * share of the cores): it becomes the middle of what is known, half the bound, and the next time the sender sets the
     * pace measures it afresh. Lowered to the bound, as before, it made the current codec's CPU exactly saturated at
     * the link's pace, so no codec slower to compress could ever look faster however much it saved on the link: at
     * 1 Gbit, lz4 (0.51 of the bytes) kept 81 % of a GiB of mixed data at 178 MB/s where zstd:1 (0.27) went at
     * 215-230. Dropped altogether, it let a codec just seen CPU-bound (zstd:3) look unbounded again.
     */
    void observe(double rawPerSecond, double compressionTime, boolean bound) {
        double implied = Math.max(0, 1 / rawPerSecond - compressionTime);
        if (bound) {
            overhead = measured ? overhead + SMOOTHING * (implied - overhead) : implied;
            measured = true;
        }
        else if (overhead > implied) {
            overhead = implied / 2;
            measured = false;
        }
    }

    /** Raw bytes per second the sender's CPU gives with a codec that compresses in {@code compressionTime} a raw byte. */
    double rate(double compressionTime) {
        return 1 / (compressionTime + overhead);
    }

    /** Seconds per raw byte outside compression; 0 until the sender was seen setting the pace. */
    double overhead() {
        return overhead;
    }
}
