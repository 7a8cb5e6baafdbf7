package io.mover.plugins.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.ResumableWriter;

/**
 * The local sink's resumable partials ({@link io.mover.spi.ResumableSink}): a temporary named after the
 * file version's key plus its {@link BlockJournal}, continued by the next writer of the key.
 */
final class LocalPartials {
    private LocalPartials() {}

    /**
     * Continues the partial at {@code temporary} when its journal vouches for some of its blocks (each
     * checked against its CRC32C now), otherwise starts it afresh under the same name.
     *
     * @param open the sink's open temporaries: one writer per partial at a time
     * @param fresh creates the temporary anew (and registers it in {@code open})
     * @param reopened a writer over the existing temporary's channel and the bytes it holds (its blocks of zeros
     *     up to there are written, past it they may be allocated)
     */
    static ResumableWriter resume(Path temporary, long size, Set<Path> open, Supplier<LocalSinkWriter> fresh,
            BiFunction<FileChannel, Long, LocalSinkWriter> reopened) {
        Path journal = BlockJournal.of(temporary);
        if (!open.add(temporary)) {
            throw new MoverException(ErrorCode.THROTTLED, "another writer continues the same file version; try again later");
        }
        LocalSinkWriter writer = null;
        try {
            List<ResumableWriter.Block> kept = BlockJournal.verified(journal, temporary, size);
            if (kept.isEmpty()) {
                Files.deleteIfExists(temporary);
                open.remove(temporary);
                writer = fresh.get();
            }
            else {
                FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE);
                long existing;
                try {
                    existing = channel.size();
                    if (existing > size) {
                        channel.truncate(size); // nothing past the announced size may end up in the file
                        existing = size;
                    }
                }
                catch (IOException e) {
                    channel.close();
                    throw e;
                }
                writer = reopened.apply(channel, existing);
            }
            return new LocalResumableWriter(writer, BlockJournal.create(journal, kept), kept);
        }
        catch (IOException | RuntimeException e) {
            if (writer != null) {
                writer.suspend();
            }
            open.remove(temporary);
            throw e instanceof IOException io ? IoErrors.map(io, "continue the partial", temporary) : (RuntimeException) e;
        }
    }

    /**
     * A resumable partial or its journal that the sweep of stale temporaries leaves: being written here,
     * or written to within {@code keep} (its writer may have died with a killed process, which is the point).
     */
    static boolean kept(Path file, Set<Path> open, Duration keep) throws IOException {
        String name = file.getFileName().toString();
        Path temporary = name.endsWith(BlockJournal.SUFFIX) ? file.resolveSibling(name.substring(0, name.length() - BlockJournal.SUFFIX.length())) : file;
        if (open.contains(temporary)) {
            return true;
        }
        Path journal = BlockJournal.of(temporary);
        if (!Files.isRegularFile(temporary, LinkOption.NOFOLLOW_LINKS) || !Files.isRegularFile(journal, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        return Files.getLastModifiedTime(journal, LinkOption.NOFOLLOW_LINKS).toInstant().isAfter(Instant.now().minus(keep));
    }
}
