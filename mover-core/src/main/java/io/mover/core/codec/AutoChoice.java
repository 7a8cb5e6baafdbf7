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
 * min(link ÷ compressed fraction, CPU rate, far end's rate) ({@link CodecRates}). A switch needs
 * a sustained gain: the same challenger ahead by 10% in {@value #SUSTAIN} decisions in a row (a decision
 * follows each taste and each link sample, about every half second), so a swing of the data or of the
 * link's figures around the margin does not flap it; only the first choice, while the first blocks are
 * tasted, is taken at once.
 * <p>The CPU rate is compression speed × cores only until the job is seen CPU-bound: writers did not wait
 * for window slots, so neither the link nor the far end set the pace: the sender's own work did ({@link SenderCpu}).
 * The ratios and speeds are compared on the same bytes ({@link CodecFigures}). With the far end on this machine
 * ({@link LinkSink#sameHost()}) the rate is instead what both ends' CPU gives on the shared cores ({@link SharedCores}),
 * and with the far end on this machine across a link of its own ({@link Placement#SAME_MACHINE}) the lower of that and
 * the link's rate, while the link is clearly slower than the shared cores ({@link SharedCores#capsAt}).
 * Thread-safe.
 */
final class AutoChoice {
    private static final System.Logger LOG = System.getLogger(AutoChoice.class.getName());
    static final int TASTE_FIRST = 8;
    static final int TASTE_EVERY = 64;
    /** Checksumming alone, for {@code none}: far faster than any link here. */
    static final double NONE_SPEED = 10e9;
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
    private final CodecFigures figures;
    private final BlockTally tally;
    private final AtomicLong calls = new AtomicLong();
    private volatile int current;
    private final LinkFigure link = new LinkFigure();
    private final FarEndRates farEnd;
    private volatile String reason = "not started";
    private final SenderCpu cpu = new SenderCpu();
    private final Placement placement;
    /** Set when the far end shares this machine's cores: then it rates the candidates (with the link, on {@link Placement#SAME_MACHINE}). */
    private final SharedCores sharedCores;
    private final CodecRates rates;
    /** {@link #switches} at the previous link sample: a sample spanning a switch mixes two codecs' rates. */
    private int switchesAtSample;
    private int switches;
    /** The candidate that beat the current one in the last {@link #wins} decisions; -1 for none. */
    private int challenger = -1;
    private int wins;
    private long lastSampleNanos = System.nanoTime();
    private LinkSink.Load lastLoad = LinkSink.Load.NONE;

    AutoChoice(List<Candidate> candidates, Supplier<LinkSink.Load> load, int cores) {
        this(candidates, load, cores, Placement.ELSEWHERE);
    }

    AutoChoice(List<Candidate> candidates, Supplier<LinkSink.Load> load, int cores, Placement placement) {
        this.placement = requireNonNull(placement, "placement is null");
        this.sharedCores = placement == Placement.ELSEWHERE ? null : new SharedCores(cores);
        this.candidates = List.copyOf(candidates);
        this.load = requireNonNull(load, "load is null");
        this.figures = new CodecFigures(this.candidates);
        this.tally = new BlockTally(this.candidates);
        this.farEnd = new FarEndRates(this.candidates);
        this.rates = new CodecRates(this.candidates, Math.max(1, cores), figures, link, farEnd, cpu, placement, sharedCores, this::current);
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
        if (elapsed < link.sampleEvery()) {
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
            if (link.probing()) {
                // nothing acknowledged while probing (blocks of zeros carry no bytes): the interrupted codec comes back
                reconsider(link.endProbe(), true);
            }
            return;
        }
        boolean capped = rates.linkCaps();
        if (oneCodec && raw > 0) {
            // writers that did not wait were paced by neither the link nor the far end, but by the sender's own CPU
            cpu.observe(raw, rates.compressionTime(current), !sample.writersWaited());
        }
        if (sample.farEndSetThePace()) {
            // what the far end wrote per second is its rate with this codec (a sample spanning a switch mixes two
            // codecs' rates); the link carried all it was given. A far end that acknowledged nothing in the sample (an
            // fsync, a stalled disk) gives no rate: a 0 here would rule this codec, and those that take its rate, out
            // for the rest of the job
            if (oneCodec && raw > 0) {
                farEnd.setThePace(current, raw);
            }
            link.atLeast(sent);
        }
        else if (sample.linkSetThePace()) {
            link.full(sent);
            if (oneCodec) {
                farEnd.keptUpWith(current, raw);
            }
        }
        else if (!sample.writersWaited()) {
            link.keptUp(sent);
            if (oneCodec) {
                farEnd.keptUpWith(current, raw);
            }
        }
        else {
            // writers waited, neither on the link as far as the sink knows nor (it did not say so) on the far end: the
            // link carried this much at least (a fast link whose socket buffers hold the whole window shows so)
            link.atLeast(sent);
        }
        if (link.probing()) {
            // the probe's sample is in: the choice made at once, against the codec it interrupted
            reconsider(link.endProbe(), true);
        }
        else if (capped && !rates.linkCaps()) {
            // on the same machine, the link turned out faster than the cores' share: the choice made on the assumed link
            // (or the probe's) was a first guess, and is made again at once, as the first choice is while tasting
            reconsider(current, true);
        }
        else if (!startProbe()) {
            reconsider(current, false);
        }
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, String.format(Locale.ROOT, "auto sample: %.1f MB/s raw, %.1f MB/s sent, waiting %.2f, far end busy %.2f,"
                    + " on the link %.2f, one codec %b; %s; figures%s", raw / 1e6, sent / 1e6, sample.waitingShare(), sample.farEndBusy(), sample.linkShare(), oneCodec, reason,
                    figures()));
        }
    }

    /**
     * The job's one probe of the link on {@link Placement#SAME_MACHINE}, raw for {@link LinkFigure#PROBE_NANOS}: started when a
     * codec that compresses is in use, the link was never seen full and its figure still caps none. The figure is then
     * only a lower bound, 1.25 times what the codec let out, so none, capped by it, could never look faster however fast
     * the link (at 10 Gbit mixed data stayed on zstd:1 with the bound at 140 MB/s). Raw bytes show what the link takes;
     * the next decision is taken at once, against the interrupted codec, which on a slow link comes back after one short
     * sample (at 1 Gbit about 0.1 s of raw instead of compressed bytes). Not for a far end elsewhere: there the receiver
     * then held raw to its own rate, and the probe measured worse (branch {@code probe}, docs/benchmarks.md).
     */
    private boolean startProbe() {
        int none = noneIndex();
        if (placement != Placement.SAME_MACHINE || link.probeStarted() || link.measured() || !rates.linkCaps() || none < 0 || current == none
                || rates.ratio(current) >= 1 - BlockCodec.MIN_SAVING) {
            return false;
        }
        link.startProbe(current);
        switches++;
        current = none;
        challenger = -1;
        wins = 0;
        reason = "probing the link with raw blocks";
        LOG.log(System.Logger.Level.DEBUG, "auto: the link was never full and caps none on this machine: probing it raw");
        return true;
    }

    private int noneIndex() {
        return IntStream.range(0, candidates.size()).filter(i -> candidates.get(i).factory() == null).findFirst().orElse(-1);
    }

    /** After a taste; not while the probe runs, whose own sample decides. */
    synchronized void reconsider() {
        if (!link.probing()) {
            reconsider(current, false);
        }
    }

    /**
     * The choice made again, against {@code incumbent}, which a challenger must beat by 10 %; after the probe that is
     * the codec it interrupted, and the decision is taken {@code atOnce}, without waiting for a sustained gain.
     */
    private void reconsider(int incumbent, boolean atOnce) {
        // a codec whose blocks all go raw only costs time: none carries the same bytes for free
        int best = rates.ratio(incumbent) >= 1 - BlockCodec.MIN_SAVING ? 0 : incumbent;
        double bestRate = rates.effective(best);
        for (int i = 0; i < candidates.size(); i++) {
            if (!rates.eligible(i)) {
                continue;
            }
            double rate = rates.effective(i);
            if (rate > bestRate * 1.1 || rate >= bestRate * TIE && !rates.linkBound(best) && rates.ratio(i) <= rates.ratio(best) + TIE_RATIO
                    && rates.compressionTime(i) * 2 < rates.compressionTime(best)) {
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
            if (wins >= SUSTAIN || atOnce || calls.get() <= TASTE_FIRST) {
                switches++;
                current = best;
                challenger = -1;
                wins = 0;
            }
        }
        int chosen = current;
        if (sharedCores != null) {
            // the rule named, and the runner-up's cost beside the chosen one's
            int other = IntStream.range(0, candidates.size()).filter(i -> i != chosen && rates.eligible(i)).boxed().max(Comparator.comparingDouble(rates::effective)).orElse(-1);
            String rule = placement == Placement.SAME_HOST ? "same host: "
                    : rates.linkCaps() ? String.format(Locale.ROOT, "same machine, link %s%.1f MB/s: ", link.measured() ? "" : "assumed ", link.rate() / 1e6)
                    : String.format(Locale.ROOT, "same machine, link %.1f MB/s or more, the cores set the pace: ", link.rate() / 1e6);
            reason = rule + sharedCores.cost(candidates.get(chosen).label(), figures.speed(chosen, chosen), rates.ratio(chosen), true)
                    + (other < 0 ? "" : " (" + sharedCores.cost(candidates.get(other).label(), figures.speed(other, chosen), rates.ratio(other), false) + ")");
            return;
        }
        reason = String.format(Locale.ROOT, "%s: %.2f of the bytes at %.0f MB/s per core, link %s%.1f MB/s%s -> %.0f MB/s effective",
                candidates.get(chosen).label(), rates.ratio(chosen), figures.speed(chosen, chosen) / 1e6, link.measured() ? "" : "assumed ", link.rate() / 1e6,
                Double.isInfinite(rates.farEndRate(chosen)) ? "" : String.format(Locale.ROOT, ", receiver %.1f MB/s", rates.farEndRate(chosen) / 1e6), rates.effective(chosen) / 1e6)
                + (cpu.overhead() > 0 ? String.format(Locale.ROOT, ", CPU-bound: %.0f%% of the modelled capacity (%.1f ns per byte besides compression)",
                        rates.cpuRate(chosen) * rates.compressionTime(chosen) * 100, cpu.overhead() * 1e9) : "");
    }

    /** Each tasted candidate's ratio, speed a core and effective rate, for the debug log. */
    private String figures() {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < candidates.size(); i++) {
            if (figures.tasted(i)) {
                list.append(String.format(Locale.ROOT, " %s %.2f %.0f %.0f;", candidates.get(i).label(), rates.ratio(i), figures.speed(i, current) / 1e6, rates.effective(i) / 1e6));
            }
        }
        return list.toString();
    }

    /** For the summary: what carried the blocks, and why the last choice was made. */
    synchronized String describe() {
        return "blocks: " + tally.shares() + "; " + switches + " switches; last choice " + reason;
    }
}
