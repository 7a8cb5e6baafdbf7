package io.mover.core.codec;

/**
 * {@code --codec auto}'s figure of the link's rate, from the samples {@link AutoChoice} reads (which also decides when
 * the one raw probe of a job starts, and guards this with its lock): the rate while writers waited on the link itself,
 * else a rising lower bound; and the probe's state.
 */
final class LinkFigure {
    /** Before the link is measured: 1 Gbit/s, a common link, in bytes per second. */
    static final double UNMEASURED = 125e6;
    private static final double SMOOTHING = 0.3;
    /** How long the probe lasts: long enough for the windows to fill, short on a slow link. */
    static final long PROBE_NANOS = 150_000_000L;
    /** How often the link is sampled otherwise. */
    static final long SAMPLE_NANOS = 500_000_000L;

    private volatile double rate = UNMEASURED;
    private volatile boolean measured;
    private boolean probeStarted;
    private boolean probing;
    private int interrupted;

    /** Bytes a second the link carries, or at least carries while not {@link #measured}. */
    double rate() {
        return rate;
    }

    /** Whether writers were seen waiting on the link itself, which gives its rate. */
    boolean measured() {
        return measured;
    }

    /** Writers waited on the link itself: {@code sent} bytes a second is its rate (smoothed). */
    void full(double sent) {
        rate = measured ? rate + SMOOTHING * (sent - rate) : sent;
        measured = true;
    }

    /** Writers did not wait: the link kept up with {@code sent} bytes a second, and can carry at least this, probably more. */
    void keptUp(double sent) {
        rate = Math.max(rate, sent * 1.25);
    }

    /** Writers waited for another reason (the far end, or one the sink cannot tell): the link carried this much at least. */
    void atLeast(double sent) {
        rate = Math.max(rate, sent);
    }

    boolean probeStarted() {
        return probeStarted;
    }

    boolean probing() {
        return probing;
    }

    /** Nanoseconds from one sample to the next: the probe's length while it runs. */
    long sampleEvery() {
        return probing ? PROBE_NANOS : SAMPLE_NANOS;
    }

    /** The probe starts, interrupting the codec {@code current}. */
    void startProbe(int current) {
        probeStarted = true;
        probing = true;
        interrupted = current;
    }

    /** The probe ends: the codec it interrupted. */
    int endProbe() {
        probing = false;
        return interrupted;
    }
}
