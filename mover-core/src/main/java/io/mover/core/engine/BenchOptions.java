package io.mover.core.engine;

import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What a bench job measures (issue 8, docs/bench.md): the options of {@code mover bench} beyond the
 * block size and codec, which are the job's own ({@link TransferOptions#blockSize()}, {@link TransferOptions#codec()}).
 * A plain carrier: mover-bench checks the values when it turns them into its settings.
 *
 * @param mode transfer (write and read back files, sweeping concurrency) or io (four corners)
 * @param files transfer: files written per step
 * @param fileSize transfer: bytes per file
 * @param data transfer: how compressible the generated data is ({@code zeros}, {@code random}, {@code text}, {@code mixed})
 * @param concurrencies transfer: the concurrencies to try, in order
 * @param keep keep what was written instead of deleting it
 * @param folder the bench's folder in the target
 * @param ioSize io: the test file's size
 * @param queueDepths io: the queue depths to run each corner at
 * @param runtime io: how long each corner runs at each depth
 * @param writeBlockSizes io: block sizes of the sequential-write sweep
 * @param streams tcp:// targets: the parallel TCP streams to try
 * @param codecs tcp:// targets: the codecs to try
 */
public record BenchOptions(Mode mode, long files, long fileSize, String data, List<Integer> concurrencies, boolean keep, String folder,
        long ioSize, List<Integer> queueDepths, Duration runtime, List<Long> writeBlockSizes, List<Integer> streams, List<String> codecs) {
    public static final BenchOptions DEFAULTS = new BenchOptions(Mode.TRANSFER, 1000, 1 << 20, "random", List.of(1, 4, 16, 64), false,
            "mover-bench", 1L << 30, List.of(1, 2, 4, 8, 16, 32, 64), Duration.ofSeconds(2),
            List.of(4096L, 16384L, 65536L, 262144L, 1L << 20, 4L << 20), List.of(1, 2, 4, 8), List.of("none", "lz4", "zstd:1", "auto"));

    public enum Mode {
        TRANSFER,
        IO
    }

    public BenchOptions {
        requireNonNull(mode, "mode is null");
        requireNonNull(data, "data is null");
        concurrencies = List.copyOf(requireNonNull(concurrencies, "concurrencies is null"));
        requireNonNull(folder, "folder is null");
        queueDepths = List.copyOf(requireNonNull(queueDepths, "queueDepths is null"));
        requireNonNull(runtime, "runtime is null");
        writeBlockSizes = List.copyOf(requireNonNull(writeBlockSizes, "writeBlockSizes is null"));
        streams = List.copyOf(requireNonNull(streams, "streams is null"));
        codecs = List.copyOf(requireNonNull(codecs, "codecs is null"));
    }
}
