package io.mover.core.codec;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import io.mover.spi.CodecFactory;
import io.mover.spi.LinkSink;

import static java.util.Objects.requireNonNull;

/**
 * The shared state of {@code --codec auto} for one job: per candidate its compression ratio and speed on
 * this machine (tasted on the first blocks and then every {@value #TASTE_EVERY}th block, so a change in
 * the data is seen), the link's rate (from the sink's {@link LinkSink.Load}: when writers wait on the link
 * itself, the bytes it took per second are its capacity), the far end's own rate (when writers wait and
 * the far end says its connections were busy with blocks most of the time, blocks waited for it, not for the
 * link: the raw bytes it wrote per second are its rate, and the few encoded bytes that carried them say
 * nothing about the link, which zeros made look like 0.2 MB/s before), the sender's own pace when neither
 * the link nor the far end set it (below), and the choice: the candidate with the highest effective throughput,
 * min(link ÷ compressed fraction, CPU rate, far end's rate). A switch needs
 * a sustained gain: the same challenger ahead by 10% in {@value #SUSTAIN} decisions in a row (a decision
 * follows each taste and each link sample, about every half second), so a swing of the data or of the
 * link's figures around the margin does not flap it; only the first choice, while the first blocks are
 * tasted, is taken at once.
 * <p>The CPU rate is compression speed × cores only until the job is seen CPU-bound: writers did not wait
 * for window slots, so neither the link nor the far end set the pace: the sender's own work did ({@link SenderCpu}).
 * The ratios and speeds are compared on the same bytes ({@link CodecFigures}). With the far end on this machine
 * ({@link LinkSink#sameHost()}) the rate is instead what both ends' CPU gives on the shared cores ({@link SharedCores}).
 * Thread-safe.
 */
final class AutoChoice {
    private static final System.Logger LOG = System.getLogger(AutoChoice.class.getName());
    static final int TASTE_FIRST = 8;
    static final int TASTE_EVERY = 64;
    /** Before the link is measured: 1 Gbit/s, a common link, in bytes per second. */
    static final double UNMEASURED_LINK = 125e6;
    /** Checksumming alone, for {@code none}: far faster than any link here. */
    static final double NONE_SPEED = 10e9;
    private static final double SMOOTHING = 0.3;
    /** Decisions in a row a challenger must win before it is switched to (3-9 switches per job were seen without). */
    static final int SUSTAIN = 3;
    /**
     * A candidate at least this share of the best effective rate, at least twice as cheap in CPU, and with a ratio at
     * most {@link #TIE_RATIO} higher is as good where the link does not set the best's pace: about the same bytes go out
     * as fast for less of the sender's CPU. Zeros stayed on zstd:1 at a fifth of lz4's speed once the receiver capped
     * both, or when the rest of the sender's work left lz4's lead under 10 %.
     */
    static final double TIE = 0.95;
    /** Extra bytes on the link, as a share of the raw bytes, that a cheaper codec may cost and still tie (zeros: 0.4 %). */
    static final double TIE_RATIO = 0.02;

    record Candidate(String label, CodecFactory factory, int level) {}

    private final List<Candidate> candidates;
    private final Supplier<LinkSink.Load> load;
    private final int cores;
    private final CodecFigures figures;
    private final BlockTally tally;
    private final AtomicLong calls = new AtomicLong();
    private volatile int current;
    private volatile double link = UNMEASURED_LINK;
    private volatile boolean linkMeasured;
    private final FarEndRates farEnd;
    private volatile String reason = "not started";
    private final SenderCpu cpu = new SenderCpu();
    /** Set when the far end shares this machine's cores: then it alone rates the candidates. */
    private final SharedCores sharedCores;
    /** {@link #switches} at the previous link sample: a sample spanning a switch mixes two codecs' rates. */
    private int switchesAtSample;
    private int switches;
    /** The candidate that beat the current one in the last {@link #wins} decisions; -1 for none. */
    private int challenger = -1;
    private int wins;
    private long lastSampleNanos = System.nanoTime();
    private LinkSink.Load lastLoad = LinkSink.Load.NONE;

    AutoChoice(List<Candidate> candidates, Supplier<LinkSink.Load> load, int cores) {
        this(candidates, load, cores, false);
    }

    AutoChoice(List<Candidate> candidates, Supplier<LinkSink.Load> load, int cores, boolean sameHost) {
        this.sharedCores = sameHost ? new SharedCores(cores) : null;
        this.candidates = List.copyOf(candidates);
        this.load = requireNonNull(load, "load is null");
        this.cores = Math.max(1, cores);
        this.figures = new CodecFigures(this.candidates);
        this.tally = new BlockTally(this.candidates);
        this.farEnd = new FarEndRates(this.candidates);
    }

    List<Candidate> candidates() {
        return candidates;
    }

    boolean shouldTaste() {
        long call = calls.incrementAndGet();
        return call <= TASTE_FIRST || call % TASTE_EVERY == 0;
    }

    int current() {
        return current;
    }

    synchronized int switches() {
        return switches;
    }

    String currentLabel() {
        return candidates.get(current).label();
    }

    void zeroBlock() {
        tally.zeroBlock();
    }

    void used(int index, long bytes) {
        tally.used(index);
        if (calls.get() % 16 == 0) {
            sampleLink();
        }
    }

    /** One taste: {@code index} compressed a sample of {@code raw} bytes into {@code written} in {@code nanos}. */
    synchronized void measured(int index, int raw, int written, long nanos) {
        if (raw > 0) {
            figures.tasted(index, raw, written, nanos, calls.get() <= TASTE_FIRST);
        }
    }

    /** One real block of the current codec {@code index}: how the data going out now compresses. */
    synchronized void compressed(int index, int raw, int written, long nanos) {
        if (raw > 0) {
            figures.compressed(index, raw, written, nanos);
        }
    }

    /** Every ~half second: the link's rate when writers waited for it (saturated), else a rising lower bound. */
    private synchronized void sampleLink() {
        long now = System.nanoTime();
        long elapsed = now - lastSampleNanos;
        if (elapsed < 500_000_000L) {
            return;
        }
        observeLink(load.get(), elapsed);
        lastSampleNanos = now;
    }

    /**
     * The link's counters {@code elapsed} nanoseconds after the previous sample. The link's rate is taken only
     * from a sample in which writers spent most of the time waiting on the link itself ({@link LinkSink.Load#linkBoundNanos}):
     * when they waited for a busy far end, or waited without the sink knowing on what, the encoded bytes per second
     * say what the far end or the codec allowed, not what the link carries.
     */
    synchronized void observeLink(LinkSink.Load load, long elapsed) {
        LinkSample sample = LinkSample.between(lastLoad, load, elapsed);
        lastLoad = load;
        boolean oneCodec = switches == switchesAtSample;
        switchesAtSample = switches;
        double sent = sample.sentPerSecond();
        double raw = sample.rawPerSecond();
        if (sent <= 0) {
            return;
        }
        if (oneCodec && raw > 0) {
            // writers that did not wait were paced by neither the link nor the far end, but by the sender's own CPU
            cpu.observe(raw, compressionTime(current), !sample.writersWaited());
        }
        if (sample.farEndSetThePace()) {
            // what the far end wrote per second is its rate with this codec (a sample spanning a switch mixes two
            // codecs' rates); the link carried all it was given. A far end that acknowledged nothing in the sample (an
            // fsync, a stalled disk) gives no rate: a 0 here would rule this codec, and those that take its rate, out
            // for the rest of the job
            if (oneCodec && raw > 0) {
                farEnd.setThePace(current, raw);
            }
            link = Math.max(link, sent);
        }
        else if (sample.linkSetThePace()) {
            link = linkMeasured ? link + SMOOTHING * (sent - link) : sent;
            linkMeasured = true;
            if (oneCodec) {
                farEnd.keptUpWith(current, raw);
            }
        }
        else if (!sample.writersWaited()) {
            if (sent * 1.25 > link || !linkMeasured) {
                // the link kept up: it can carry at least this, probably more
                link = Math.max(link, sent * 1.25);
            }
            if (oneCodec) {
                farEnd.keptUpWith(current, raw);
            }
        }
        else {
            // writers waited, neither on the link as far as the sink knows nor (it did not say so) on the far end: the
            // link carried this much at least (a fast link whose socket buffers hold the whole window shows so)
            link = Math.max(link, sent);
        }
        reconsider();
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, String.format(Locale.ROOT, "auto sample: %.1f MB/s raw, %.1f MB/s sent, waiting %.2f, far end busy %.2f,"
                    + " on the link %.2f, one codec %b; %s; figures%s", raw / 1e6, sent / 1e6, sample.waitingShare(), sample.farEndBusy(), sample.linkShare(), oneCodec, reason,
                    figures()));
        }
    }

    /** Seconds per raw byte {@code index} takes to compress on all cores (checksumming alone for none). */
    private double compressionTime(int index) {
        return 1 / (figures.speed(index, current) * (candidates.get(index).factory() == null ? 1 : cores));
    }

    /** Raw bytes per second the sender's CPU gives with {@code index}: its compression plus the overhead seen. */
    private double cpuRate(int index) {
        return cpu.rate(compressionTime(index));
    }

    private double ratio(int index) {
        return figures.ratio(index, current);
    }

    synchronized void reconsider() {
        // a codec whose blocks all go raw only costs time: none carries the same bytes for free
        int best = ratio(current) >= 1 - BlockCodec.MIN_SAVING ? 0 : current;
        double bestRate = effective(best);
        for (int i = 0; i < candidates.size(); i++) {
            if (!eligible(i)) {
                continue;
            }
            double rate = effective(i);
            if (rate > bestRate * 1.1 || rate >= bestRate * TIE && !linkBound(best) && ratio(i) <= ratio(best) + TIE_RATIO
                    && compressionTime(i) * 2 < compressionTime(best)) {
                best = i;
                bestRate = rate;
            }
        }
        if (best == current) {
            challenger = -1;
            wins = 0;
        }
        else {
            wins = best == challenger ? wins + 1 : 1;
            challenger = best;
            if (wins >= SUSTAIN || calls.get() <= TASTE_FIRST) {
                switches++;
                current = best;
                challenger = -1;
                wins = 0;
            }
        }
        int chosen = current;
        if (sharedCores != null) {
            // the rule named, and the runner-up's cost beside the chosen one's
            int other = IntStream.range(0, candidates.size()).filter(i -> i != chosen && eligible(i)).boxed().max(Comparator.comparingDouble(this::effective)).orElse(-1);
            reason = "same host: " + sharedCores.cost(candidates.get(chosen).label(), figures.speed(chosen, chosen), ratio(chosen), true)
                    + (other < 0 ? "" : " (" + sharedCores.cost(candidates.get(other).label(), figures.speed(other, chosen), ratio(other), false) + ")");
            return;
        }
        reason = String.format(Locale.ROOT, "%s: %.2f of the bytes at %.0f MB/s per core, link %s%.1f MB/s%s -> %.0f MB/s effective",
                candidates.get(chosen).label(), ratio(chosen), figures.speed(chosen, chosen) / 1e6, linkMeasured ? "" : "assumed ", link / 1e6,
                Double.isInfinite(farEndRate(chosen)) ? "" : String.format(Locale.ROOT, ", receiver %.1f MB/s", farEndRate(chosen) / 1e6), effective(chosen) / 1e6)
                + (cpu.overhead() > 0 ? String.format(Locale.ROOT, ", CPU-bound: %.0f%% of the modelled capacity (%.1f ns per byte besides compression)",
                        cpuRate(chosen) * compressionTime(chosen) * 100, cpu.overhead() * 1e9) : "");
    }

    /**
     * Tasted, and saving something: a codec whose blocks go raw (random data) carries the same bytes as none, to the
     * same far end, for its compression time; its unmeasured far-end rate made random data look worth a try, and
     * 30-40 % of a GiB of random went through lz4, zstd:1 or zstd:3 only to be sent raw.
     */
    private boolean eligible(int index) {
        return figures.tasted(index) && (candidates.get(index).factory() == null || ratio(index) < 1 - BlockCodec.MIN_SAVING);
    }

    /** Whether the link, not this end's CPU or the far end, limits {@code index}: then every byte saved counts (never on the same host). */
    private boolean linkBound(int index) {
        return sharedCores == null && link / Math.max(ratio(index), 1e-4) <= Math.min(cpuRate(index), farEndRate(index));
    }

    private double effective(int index) {
        if (sharedCores != null) {
            return sharedCores.rate(figures.speed(index, current), ratio(index));
        }
        return Math.min(Math.min(link / Math.max(ratio(index), 1e-4), cpuRate(index)), farEndRate(index));
    }

    private double farEndRate(int index) {
        return farEnd.rate(index, figures);
    }

    /** Each tasted candidate's ratio, speed a core and effective rate, for the debug log. */
    private String figures() {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < candidates.size(); i++) {
            if (figures.tasted(i)) {
                list.append(String.format(Locale.ROOT, " %s %.2f %.0f %.0f;", candidates.get(i).label(), ratio(i), figures.speed(i, current) / 1e6, effective(i) / 1e6));
            }
        }
        return list.toString();
    }

    /** For the summary: what carried the blocks, and why the last choice was made. */
    synchronized String describe() {
        return "blocks: " + tally.shares() + "; " + switches + " switches; last choice " + reason;
    }
}
