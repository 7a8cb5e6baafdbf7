package io.mover.core.engine;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;

import io.mover.core.codec.BlockCodec;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

import static java.util.Objects.requireNonNull;

/** What a run asks of the destination around a file: whether to copy it, and (for --verify) reading it back. */
final class DestinationChecks {
    private final TransferRun run;

    DestinationChecks(TransferRun run) {
        this.run = requireNonNull(run, "run is null");
    }

    /** Whether {@code entry} must be copied over what is at {@code target}, by the overwrite policy. */
    boolean shouldCopy(Entry entry, RelativePath target) {
        TransferOptions options = run.options();
        PreparedJob job = run.job();
        if (options.overwrite() == OverwritePolicy.TRUE) {
            return true;
        }
        Optional<Entry> existing = job.sink().isPresent() ? job.sink().get().stat(target)
                : job.destinationView().flatMap(view -> view.stat(target));
        if (existing.isEmpty() || !existing.get().isFile()) {
            return true;
        }
        if (options.overwrite() == OverwritePolicy.FALSE) {
            return false;
        }
        Duration precision = max(job.source().info().mtimePrecision(), job.sink().map(s -> s.info().mtimePrecision()).orElse(Duration.ofSeconds(1)));
        return entry.lastModified().isAfter(existing.get().lastModified().plus(precision).minusNanos(1));
    }

    /** Reads {@code target} back and compares each block's checksum with the source's. */
    void verify(RelativePath target, long size, int[] expected) {
        int blockSize = run.options().blockSize();
        Source view = run.job().destinationView().orElseThrow();
        long start = System.nanoTime();
        BufferPool.Slot slot = run.pool().acquire();
        try (SourceReader reader = view.open(target)) {
            if (reader.size() != size) {
                throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "verify: " + target + " has " + reader.size() + " bytes, expected " + size);
            }
            ByteBuffer buffer = slot.raw();
            for (int block = 0; block < expected.length; block++) {
                buffer.clear().limit((int) Math.min(blockSize, size - (long) block * blockSize));
                reader.read((long) block * blockSize, buffer);
                buffer.flip();
                if (BlockCodec.crc32c(buffer) != expected[block]) {
                    throw new MoverException(ErrorCode.CHECKSUM_MISMATCH, "verify: " + target + " differs from the source in block " + block);
                }
            }
        }
        finally {
            run.pool().release(slot);
            run.meter(Stage.COMMIT).busy(start, size);
        }
    }

    /** Removes a committed file that failed verification, so no corrupt copy is left looking whole. */
    void removeQuietly(RelativePath target) {
        try {
            run.sink().delete(target, false);
        }
        catch (MoverException e) {
            run.logWarning("could not remove " + target + " after it failed verification: " + e.getMessage());
        }
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
