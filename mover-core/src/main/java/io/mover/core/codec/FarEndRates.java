package io.mover.core.codec;

import java.util.Arrays;
import java.util.List;

import io.mover.spi.CodecFactory;

/**
 * Raw bytes per second the far end writes with each candidate's blocks, for {@code --codec auto} ({@link AutoChoice});
 * unbounded until it was seen setting the pace with that codec. One figure per codec, since decoding is part of the far
 * end's work: zeros went to a receiver at 1,390 MB/s as lz4 and at 340 MB/s as zstd:1, and with one shared figure
 * every codec tied at the far end's rate and the current one stayed. An unmeasured codec is thus tried once where it
 * may pay. Not thread-safe (AutoChoice holds its lock).
 */
final class FarEndRates {
    private static final double SMOOTHING = 0.3;

    private final List<AutoChoice.Candidate> candidates;
    private final double[] rates;

    FarEndRates(List<AutoChoice.Candidate> candidates) {
        this.candidates = candidates;
        this.rates = new double[candidates.size()];
        Arrays.fill(rates, Double.POSITIVE_INFINITY);
    }

    /** The far end set the pace at {@code rawPerSecond} of {@code current}'s blocks. */
    void setThePace(int current, double rawPerSecond) {
        double known = rates[current];
        set(current, Double.isInfinite(known) ? rawPerSecond : known + SMOOTHING * (rawPerSecond - known));
    }

    /** The far end kept up with {@code rawPerSecond} of {@code current}'s blocks, and probably more. */
    void keptUpWith(int current, double rawPerSecond) {
        set(current, Math.max(rates[current], rawPerSecond * 1.25));
    }

    /**
     * The far end's rate with the current codec, and with every level of it: one decoder serves all levels (zstd's
     * decoding does not depend on the level), so zstd:3 and zstd:9 are not tried one after the other for a rate
     * zstd:1 already gave (zeros to a receiver on loopback went through five codecs in six switches).
     */
    private void set(int current, double rate) {
        CodecFactory family = candidates.get(current).factory();
        for (int i = 0; i < candidates.size(); i++) {
            if (i == current || family != null && candidates.get(i).factory() == family) {
                rates[i] = rate;
            }
        }
    }

    /**
     * The far end's rate with {@code index}: measured, or else that of a codec measured there that compresses at least as
     * fast here by its tastes (a codec slower to encode is no faster to decode: lz4 decodes faster than zstd at
     * any level), or else unbounded, so it is tried once where it may pay. Zeros to a receiver capped at its writing had
     * zstd:3 tried for 13-31 % of a GiB after lz4's rate there was known, at four times lz4's CPU here. none's rate says
     * nothing of a codec's: a compressed block is fewer bytes for the far end to receive.
     */
    double rate(int index, CodecFigures figures) {
        if (!Double.isInfinite(rates[index]) || candidates.get(index).factory() == null) {
            return rates[index];
        }
        double rate = Double.POSITIVE_INFINITY;
        for (int i = 0; i < candidates.size(); i++) {
            if (candidates.get(i).factory() != null && !Double.isInfinite(rates[i]) && figures.tastedSpeed(i) >= figures.tastedSpeed(index)) {
                rate = Double.isInfinite(rate) ? rates[i] : Math.max(rate, rates[i]);
            }
        }
        return rate;
    }
}
