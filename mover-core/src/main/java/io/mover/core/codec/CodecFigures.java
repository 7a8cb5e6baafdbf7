package io.mover.core.codec;

import java.util.List;

/**
 * Each candidate's compression ratio and speed on this machine for {@code --codec auto} ({@link AutoChoice}), measured
 * so that candidates are compared on the same bytes. A taste compresses one sample with every candidate: tastes alone
 * set the figures that rank them. The current codec's own blocks say how the data going out now differs from the
 * tasted samples, and that factor applies to every candidate alike. Mixing the two, as before, compared the current
 * codec's last few blocks with the others' last taste, up to 64 blocks earlier: on a tar of the JDK the current
 * codec's ratio swung from 0.24 to 0.81 while the others' stood still, zstd:3 read 0.61 against lz4's 0.57, and the
 * choice followed the data's regions (lz4 from 0 to 81 % of the blocks from run to run). Not thread-safe (AutoChoice
 * holds its lock).
 */
final class CodecFigures {
    /** Smoothing of tastes: one every 64 blocks. */
    private static final double SMOOTHING = 0.3;
    /** Smoothing of the current codec's blocks: one per block, so about the last 20 count. */
    private static final double BLOCK_SMOOTHING = 0.05;

    private final List<AutoChoice.Candidate> candidates;
    private final double[] ratio;
    private final double[] speed;
    /** The current codec's ratio and speed on its own blocks since it became current; 0 before its first block. */
    private int blockCodec = -1;
    private double blockRatio;
    private double blockSpeed;

    CodecFigures(List<AutoChoice.Candidate> candidates) {
        this.candidates = candidates;
        this.ratio = new double[candidates.size()];
        this.speed = new double[candidates.size()];
        for (int i = 0; i < candidates.size(); i++) {
            ratio[i] = 1;
            speed[i] = candidates.get(i).factory() == null ? AutoChoice.NONE_SPEED : 0;
        }
    }

    /** The fraction of {@code raw} bytes that {@code written} stands for; a block that saves under 3% counts as raw. */
    private static double fraction(int raw, int written) {
        return written > raw * (1 - BlockCodec.MIN_SAVING) ? 1 : (double) written / raw;
    }

    /** One taste of {@code index}; {@code cold}: among the job's first blocks. */
    void tasted(int index, int raw, int written, long nanos, boolean cold) {
        double fraction = fraction(raw, written);
        double bytesPerSecond = raw * 1e9 / Math.max(1, nanos);
        ratio[index] = speed[index] == 0 ? fraction : ratio[index] + SMOOTHING * (fraction - ratio[index]);
        if (speed[index] == 0 || cold) {
            // the first tastes run cold (native calls not linked yet, code interpreted, four workers on two cores): only
            // slower than the codec is, never faster, so the best of them counts; smoothed, a cold lz4 left zeros on
            // zstd:3 for the first quarter of a GiB (docs/benchmarks.md, the TCP peer)
            speed[index] = Math.max(speed[index], bytesPerSecond);
            return;
        }
        speed[index] = speed[index] + SMOOTHING * (bytesPerSecond - speed[index]);
    }

    /** One real block of {@code index}, the current codec: kept only while it stays current. */
    void compressed(int index, int raw, int written, long nanos) {
        double fraction = fraction(raw, written);
        double bytesPerSecond = raw * 1e9 / Math.max(1, nanos);
        if (index != blockCodec) {
            blockCodec = index;
            blockRatio = fraction;
            blockSpeed = bytesPerSecond;
            return;
        }
        blockRatio += BLOCK_SMOOTHING * (fraction - blockRatio);
        blockSpeed += BLOCK_SMOOTHING * (bytesPerSecond - blockSpeed);
    }

    /** Whether the current codec's own blocks are there to compare with its tastes (none's figures need no scaling). */
    private boolean scaled(int current) {
        return current == blockCodec && speed[current] > 0 && candidates.get(current).factory() != null;
    }

    /** Whether {@code index} was tasted (none always is). */
    boolean tasted(int index) {
        return speed[index] > 0;
    }

    /** The share of the raw bytes {@code index} would send now, with {@code current} carrying the blocks. */
    double ratio(int index, int current) {
        if (candidates.get(index).factory() == null) {
            return 1;
        }
        return Math.min(1, scaled(current) ? ratio[index] * blockRatio / ratio[current] : ratio[index]);
    }

    /** Raw bytes per second {@code index} compresses now on one core (checksums alone for none). */
    double speed(int index, int current) {
        return candidates.get(index).factory() == null || !scaled(current) ? speed[index] : speed[index] * blockSpeed / speed[current];
    }

    /** The tasted speed alone: the candidates' order by speed, for the far end's rates. */
    double tastedSpeed(int index) {
        return speed[index];
    }
}
