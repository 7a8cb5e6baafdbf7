package io.mover.core.codec;

import java.util.List;
import java.util.function.IntSupplier;

/**
 * The rate model of {@code --codec auto} ({@link AutoChoice}): the raw bytes per second each candidate would move now
 * through the link (its rate over the candidate's compressed fraction), through this end's CPU (compression on every
 * core plus the overhead seen, {@link SenderCpu}) and through the far end ({@link FarEndRates}), or, when the far end
 * shares this machine's cores, through both ends' CPU ({@link SharedCores}); a candidate's effective rate is the lowest
 * of those that apply. Read from the figures AutoChoice keeps, scaled by the blocks of the codec in use
 * ({@code current}). Not thread-safe: AutoChoice holds its lock.
 */
final class CodecRates {
    private final List<AutoChoice.Candidate> candidates;
    private final int cores;
    private final CodecFigures figures;
    private final LinkFigure link;
    private final FarEndRates farEnd;
    private final SenderCpu cpu;
    private final Placement placement;
    /** Null for a far end elsewhere. */
    private final SharedCores sharedCores;
    private final IntSupplier current;

    CodecRates(List<AutoChoice.Candidate> candidates, int cores, CodecFigures figures, LinkFigure link, FarEndRates farEnd, SenderCpu cpu,
            Placement placement, SharedCores sharedCores, IntSupplier current) {
        this.candidates = candidates;
        this.cores = cores;
        this.figures = figures;
        this.link = link;
        this.farEnd = farEnd;
        this.cpu = cpu;
        this.placement = placement;
        this.sharedCores = sharedCores;
        this.current = current;
    }

    /** Seconds per raw byte {@code index} takes to compress on all cores (checksumming alone for none). */
    double compressionTime(int index) {
        return 1 / (figures.speed(index, current.getAsInt()) * (candidates.get(index).factory() == null ? 1 : cores));
    }

    /** Raw bytes per second the sender's CPU gives with {@code index}: its compression plus the overhead seen. */
    double cpuRate(int index) {
        return cpu.rate(compressionTime(index));
    }

    /** The share of the raw bytes {@code index} would send now. */
    double ratio(int index) {
        return figures.ratio(index, current.getAsInt());
    }

    /** Raw bytes per second {@code index} compresses now on one core. */
    double speed(int index) {
        return figures.speed(index, current.getAsInt());
    }

    /**
     * Tasted, and saving something: a codec whose blocks go raw (random data) carries the same bytes as none, to the
     * same far end, for its compression time; its unmeasured far-end rate made random data look worth a try, and
     * 30-40 % of a GiB of random went through lz4, zstd:1 or zstd:3 only to be sent raw.
     */
    boolean eligible(int index) {
        return figures.tasted(index) && (candidates.get(index).factory() == null || ratio(index) < 1 - BlockCodec.MIN_SAVING);
    }

    /**
     * Whether the link, not this end's CPU or the far end, limits {@code index}: then every byte saved counts (never on
     * the same host; on the same machine only while the link caps the cores' rate).
     */
    boolean linkBound(int index) {
        if (sharedCores != null) {
            return linkCaps() && linkRate(index) <= coresRate(index);
        }
        return linkRate(index) <= Math.min(cpuRate(index), farEndRate(index));
    }

    double effective(int index) {
        if (sharedCores != null) {
            return linkCaps() ? Math.min(linkRate(index), coresRate(index)) : coresRate(index);
        }
        return Math.min(Math.min(linkRate(index), cpuRate(index)), farEndRate(index));
    }

    /** Raw bytes per second the link carries with {@code index}'s ratio. */
    private double linkRate(int index) {
        return link.rate() / Math.max(ratio(index), 1e-4);
    }

    /** Raw bytes per second both ends' CPU gives with {@code index} on the shared cores. */
    private double coresRate(int index) {
        return sharedCores.rate(speed(index), ratio(index));
    }

    /** On {@link Placement#SAME_MACHINE}: whether the link's figure is the network's own limit ({@link SharedCores#capsAt}). */
    boolean linkCaps() {
        return placement == Placement.SAME_MACHINE && sharedCores.capsAt(link.rate());
    }

    double farEndRate(int index) {
        return farEnd.rate(index, figures);
    }
}
