package io.mover.core.codec;

import java.util.concurrent.ConcurrentLinkedQueue;

import static java.util.Objects.requireNonNull;

/**
 * Reusable {@link BlockCodec}s: a codec instance holds scratch state and is used by one thread at a
 * time, but creating one per file (or per virtual thread) would cost more than the small files it moves.
 */
public final class CodecPool {
    private final CodecResolver.ResolvedCodec codec;
    private final ConcurrentLinkedQueue<BlockCodec> idle = new ConcurrentLinkedQueue<>();

    public CodecPool(CodecResolver.ResolvedCodec codec) {
        this.codec = requireNonNull(codec, "codec is null");
    }

    public BlockCodec borrow() {
        BlockCodec blockCodec = idle.poll();
        return blockCodec != null ? blockCodec : new BlockCodec(codec.newCodec());
    }

    public void giveBack(BlockCodec blockCodec) {
        idle.add(blockCodec);
    }
}
