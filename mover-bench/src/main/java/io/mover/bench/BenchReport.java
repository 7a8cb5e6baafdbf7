package io.mover.bench;

import java.util.List;
import java.util.Map;

/**
 * What a bench measured, in the form the text, JSON and HTML reports all render. Plain values (seconds,
 * bytes, microseconds) so that the JSON is stable and needs no type adapters; {@code null} where a
 * mode has nothing to say.
 *
 * @param mode {@code transfer} or {@code io}
 * @param target the target as given (its query hidden)
 * @param started when the bench started (ISO-8601)
 * @param settings what was asked, in words
 * @param sweep transfer mode: one point per concurrency tried
 * @param recommendation transfer mode: the setting to use, and why
 * @param io io mode: the four corners at each queue depth
 * @param blockSizes io mode: sequential writes at each block size
 * @param notes what the operator should know: space checks skipped, data kept, data left behind
 */
public record BenchReport(String mode, String target, String started, String settings, List<SweepPoint> sweep,
        Recommendation recommendation, List<IoPoint> io, List<IoPoint> blockSizes, List<String> notes) {
    public BenchReport {
        sweep = List.copyOf(sweep);
        io = List.copyOf(io);
        blockSizes = List.copyOf(blockSizes);
        notes = List.copyOf(notes);
    }

    /** One phase of a sweep point: the files written, or read back. */
    public record Phase(long files, long bytes, double seconds, double bytesPerSecond, double filesPerSecond) {
        static Phase of(long files, long bytes, long nanos) {
            double seconds = nanos / 1e9;
            return new Phase(files, bytes, seconds, seconds == 0 ? 0 : bytes / seconds, seconds == 0 ? 0 : files / seconds);
        }
    }

    /** Latency percentiles of one kind of operation, in microseconds, from an HdrHistogram. */
    public record Latency(String operation, long count, double meanMicros, double p50Micros, double p90Micros, double p99Micros,
            double p999Micros, double maxMicros) {}

    /** One engine stage over a write phase (see docs/cli.md, "The summary"). */
    public record StageFigure(String stage, long bytes, long operations, double busySeconds, double waitingSeconds, double shareOfBusy,
            double bytesPerBusySecond) {}

    /** Bytes per second of each data-path stage over one progress interval, {@code seconds} after the phase started. */
    public record Sample(double seconds, Map<String, Double> stageBytesPerSecond) {}

    /**
     * One step of the transfer sweep: a concurrency, or for a target across a link (tcp://) a cell of streams and codec.
     *
     * @param read the read-back; {@code null} for a link, which is written only (the peer protocol has no reads)
     * @param bottleneck the engine's bottleneck sentence for the write phase
     * @param streams a link cell's TCP streams; {@code null} otherwise
     * @param codec a link cell's codec as asked ({@code auto} included); {@code null} otherwise
     * @param codecUsed what the engine used for that codec ({@code auto} says what it chose)
     */
    public record SweepPoint(int concurrency, Phase write, Phase read, List<StageFigure> stages, String bottleneckStage,
            String bottleneck, List<Latency> latencies, List<Sample> timeline, Integer streams, String codec, String codecUsed) {
        /** How tables name the point: its concurrency, or a link cell's streams and codec. */
        public String label() {
            return streams == null ? Integer.toString(concurrency) : streams + (streams == 1 ? " stream, " : " streams, ") + codec;
        }
    }

    /**
     * The setting that gave the most throughput (the smallest within 5% of the best), the options to use, and why.
     *
     * @param streams for a link: the streams to use; {@code null} otherwise
     * @param codec for a link: the codec to use; {@code null} otherwise
     */
    public record Recommendation(int concurrency, int readConcurrency, String options, String bottleneck, String reason, Integer streams,
            String codec) {
        /** The sweep's point this recommends. */
        public SweepPoint point(List<SweepPoint> sweep) {
            return sweep.stream().filter(p -> p.concurrency() == concurrency && java.util.Objects.equals(p.streams(), streams)
                    && java.util.Objects.equals(p.codec(), codec)).findFirst().orElse(sweep.getLast());
        }
    }

    /**
     * One fio-like job: a pattern ({@code seq-read}, {@code seq-write}, {@code rand-read}, {@code rand-write}) at one depth and block size.
     *
     * @param cpuSeconds the workers' CPU time (user + system) over the point: {@code operations / cpuSeconds} is what each operation
     *        costs, whatever share of a busy machine the workers got; {@code null} in reports written before it was measured
     */
    public record IoPoint(String pattern, int blockSize, int queueDepth, long operations, double seconds, double mibPerSecond, double iops,
            Double cpuSeconds, Latency latency) {}
}
