package io.mover.core.engine;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@link StageMeter} per stage of a job, and the reading of them: per-stage figures and the
 * bottleneck, the data-path stage with the largest share of busy time.
 */
public final class JobMeters {
    private final Map<Stage, StageMeter> meters = new EnumMap<>(Stage.class);

    public JobMeters() {
        for (Stage stage : Stage.values()) {
            meters.put(stage, new StageMeter());
        }
    }

    public StageMeter get(Stage stage) {
        return meters.get(stage);
    }

    public List<StageStats> stats() {
        Map<Stage, StageMeter.Snapshot> snapshots = new EnumMap<>(Stage.class);
        meters.forEach((stage, meter) -> snapshots.put(stage, meter.snapshot()));
        long dataPathBusy = 0;
        for (Stage stage : Stage.DATA_PATH) {
            dataPathBusy += snapshots.get(stage).busyNanos();
        }
        List<StageStats> stats = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            stats.add(snapshots.get(stage).toStats(stage, dataPathBusy));
        }
        return stats;
    }

    /** The limiting stage, once any bytes have moved. */
    public static Optional<Bottleneck> bottleneck(List<StageStats> stats) {
        return stats.stream()
                .filter(s -> Stage.DATA_PATH.contains(s.stage()) && s.shareOfBusy() > 0)
                .max((a, b) -> Double.compare(a.shareOfBusy(), b.shareOfBusy()))
                .map(s -> new Bottleneck(s.stage(), s.shareOfBusy(), explain(s)));
    }

    private static String explain(StageStats s) {
        String share = String.format("%s: %.0f%% of busy time", s.stage(), s.shareOfBusy() * 100);
        return share + switch (s.stage()) {
            case READ -> ", the source is the limit (its disk or service)";
            case ENCODE -> ", compression is the limit (CPU); a faster codec or none would go faster";
            case SEND -> ", sending is the limit: the link, or the receiver behind it (over a peer, the codec line says which)";
            case DECODE -> ", decompression is the limit (CPU)";
            case WRITE -> ", the destination is the limit (its disk or service)";
            case COMMIT -> ", per-file commits are the limit (many small files: rename, attributes, sync)";
            default -> "";
        };
    }
}
