package io.mover.plugins.nfs.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;

import java.util.List;

/**
 * ONC RPC record marking over TCP (RFC 5531 §11): each fragment starts with a 4-byte header, the top
 * bit marking the last fragment of a record and the other 31 bits its length. Emits one buffer per
 * complete record. A record longer than {@code maxRecordBytes} raises {@link TooLongFrameException}
 * at once (before buffering it), and the connection handler drops the connection.
 *
 * <p>Not sharable: it holds the fragments of the record being assembled.
 */
public final class RecordMarkingDecoder extends ByteToMessageDecoder {
    private static final int LAST_FRAGMENT = 0x8000_0000;

    private final int maxRecordBytes;
    private CompositeByteBuf record;
    /** After an oversize record nothing on this stream can be framed again: the rest is discarded until the close. */
    private boolean failed;

    public RecordMarkingDecoder(int maxRecordBytes) {
        if (maxRecordBytes <= 0) {
            throw new IllegalArgumentException("maxRecordBytes must be positive: " + maxRecordBytes);
        }
        this.maxRecordBytes = maxRecordBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext context, ByteBuf in, List<Object> out) throws TooLongFrameException {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.readableBytes() >= 4) {
            int header = in.getInt(in.readerIndex());
            long fragmentLength = header & 0x7FFF_FFFFL;
            long recordSoFar = record == null ? 0 : record.readableBytes();
            if (recordSoFar + fragmentLength > maxRecordBytes) {
                failed = true;
                in.skipBytes(in.readableBytes());
                throw new TooLongFrameException("RPC record of at least " + (recordSoFar + fragmentLength) +
                        " bytes exceeds the limit of " + maxRecordBytes);
            }
            if (in.readableBytes() < 4 + fragmentLength) {
                return;
            }
            in.skipBytes(4);
            ByteBuf fragment = in.readRetainedSlice((int) fragmentLength);
            if (record == null) {
                record = context.alloc().compositeBuffer(64);
            }
            record.addComponent(true, fragment);
            if ((header & LAST_FRAGMENT) != 0) {
                out.add(record);
                record = null;
            }
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext context) {
        if (record != null) {
            record.release();
            record = null;
        }
    }

    /** Prefixes an encoded call with a single last-fragment header (calls never exceed 2 GiB). */
    public static void writeHeader(ByteBuf out, int recordLength) {
        out.writeInt(LAST_FRAGMENT | recordLength);
    }
}
