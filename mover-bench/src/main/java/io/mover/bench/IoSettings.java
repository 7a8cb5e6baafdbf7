package io.mover.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * What {@code mover bench --mode io} does: fio's four corners (64 KiB sequential and 8 KiB random,
 * read and write) at each queue depth, then sequential writes at each block size, each for
 * {@code runtime}, on a test file of {@code fileSize} in the bench folder.
 */
public record IoSettings(String target, Map<String, String> targetConfig, long fileSize, List<Integer> queueDepths,
        List<Long> writeBlockSizes, Duration runtime, boolean keep, String folder) implements BenchSettings {
    public static final int SEQUENTIAL_BLOCK = 64 * 1024;
    public static final int RANDOM_BLOCK = 8 * 1024;

    public IoSettings {
        requireNonNull(target, "target is null");
        targetConfig = Map.copyOf(targetConfig);
        queueDepths = List.copyOf(queueDepths);
        writeBlockSizes = List.copyOf(writeBlockSizes);
        requireNonNull(runtime, "runtime is null");
        check(!queueDepths.isEmpty() && queueDepths.stream().allMatch(d -> d >= 1 && d <= 256), "--queue-depths must be between 1 and 256, such as 1,4,16,64");
        check(writeBlockSizes.stream().allMatch(b -> b >= 512 && b <= (64L << 20)), "--write-block-sizes must be between 512 bytes and 64MiB");
        long largest = writeBlockSizes.stream().mapToLong(Long::longValue).max().orElse(SEQUENTIAL_BLOCK);
        long depth = queueDepths.stream().mapToInt(Integer::intValue).max().orElseThrow();
        check(fileSize >= Math.max(largest, SEQUENTIAL_BLOCK) * depth, "--io-size must hold a block for each of the " + depth
                + " workers of the deepest queue: at least " + Sizes.bytes(Math.max(largest, SEQUENTIAL_BLOCK) * depth));
        check(!runtime.isNegative() && !runtime.isZero() && runtime.compareTo(Duration.ofMinutes(10)) <= 0, "--runtime must be between 1ms and 10m");
        check(!folder.isBlank() && !folder.contains("/") && !folder.equals("..") && !folder.equals("."), "--folder must be a plain folder name");
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, message);
        }
    }
}
