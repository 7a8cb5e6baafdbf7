package io.mover.spi;

/**
 * An optional ability of a {@link Sink}: writers whose partial file outlives the process, so that a large
 * file interrupted by a crash (a killed receiver, a lost machine) continues from the blocks it already
 * holds instead of from zero.
 *
 * <p>The temporary of such a writer is named after its {@code key} (the caller's identity of the source
 * file's version: same key, same bytes), and it stays in place when the process dies or the writer is
 * {@linkplain ResumableWriter#suspend() suspended}. The next {@link #resume} with the same key reopens it
 * and reports the blocks it still holds, each re-read and checked against its CRC32C first, so a block
 * torn by the crash is simply written again. {@link Sink#removeStaleTemporaries} leaves such partials for
 * a while (the local sink: 24 hours after their last write), then removes them like any stale temporary.
 *
 * <p>Thread rules and buffer ownership as {@link Sink#create}.
 *
 * @since 1.2
 */
public interface ResumableSink {
    /**
     * As {@link Sink#create}, continuing the partial temporary of {@code key} when one is left.
     *
     * @param key the source file's version as the caller identifies it ({@code [A-Za-z0-9_-]{1,64}})
     */
    ResumableWriter resume(RelativePath path, long size, Entry entry, String key);
}
