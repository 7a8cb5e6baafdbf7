package io.mover.core.codec;

import java.util.concurrent.ConcurrentLinkedQueue;

import static java.util.Objects.requireNonNull;

/**
 * Reusable {@link BlockCodec}s: a codec instance holds scratch state and is used by one thread at a
 * time, but creating one per file (or per virtual thread) would cost more than the small files it moves.
 */
public final class CodecPool {
    private final CodecResolver.ResolvedCodec codec;
    private final boolean zeroBlocks;
    private final ConcurrentLinkedQueue<BlockCodec> idle = new ConcurrentLinkedQueue<>();

    public CodecPool(CodecResolver.ResolvedCodec codec) {
        this(codec, false);
    }

    /** @param zeroBlocks whether the decoding side takes blocks of zeros as a header alone (see {@link BlockCodec#zeros}) */
    public CodecPool(CodecResolver.ResolvedCodec codec, boolean zeroBlocks) {
        this.codec = requireNonNull(codec, "codec is null");
        this.zeroBlocks = zeroBlocks;
    }

    public BlockCodec borrow() {
        BlockCodec blockCodec = idle.poll();
        return blockCodec != null ? blockCodec : new BlockCodec(codec.newCodec(), zeroBlocks);
    }

    public void giveBack(BlockCodec blockCodec) {
        idle.add(blockCodec);
    }
}
