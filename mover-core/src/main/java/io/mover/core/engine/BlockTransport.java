package io.mover.core.engine;

import java.nio.ByteBuffer;

import io.mover.core.codec.BlockCodec.EncodedBlock;
import io.mover.spi.BlockHeader;

/**
 * The SEND stage: carries an encoded block from the encoding side to the decoding side.
 */
public interface BlockTransport {
    EncodedBlock send(EncodedBlock block);

    /**
     * Both sides in this process: the header goes through its wire form (so the format is exercised
     * and checked) and the payload is handed over without a copy.
     */
    BlockTransport IN_PROCESS = block -> {
        ByteBuffer header = ByteBuffer.allocate(BlockHeader.LENGTH);
        block.header().writeTo(header);
        header.flip();
        return new EncodedBlock(BlockHeader.readFrom(header), block.payload());
    };
}
