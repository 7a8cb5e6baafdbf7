package io.mover.plugins.nfs.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;

/**
 * ONC RPC record marking over TCP (RFC 5531 §11): each fragment starts with a 4-byte header, the top
 * bit marking the last fragment of a record and the other 31 bits its length. Emits one buffer per
 * complete record. A record longer than {@code maxRecordBytes} raises {@link TooLongFrameException}
 * at once (before buffering it), and the connection handler drops the connection.
 *
 * <p>Copies nothing: a record is a composite of retained slices of the socket's read buffers. (Netty's
 * {@code ByteToMessageDecoder} merges every read into one growing buffer, which for 1 MiB READ replies
 * cost more CPU than the rest of the client: each reply copied once or more, and the buffer reallocated
 * and zeroed as it grew.)
 *
 * <p>Not sharable: it holds the fragments of the record being assembled.
 */
public final class RecordMarkingDecoder extends ChannelInboundHandlerAdapter {
    private static final int LAST_FRAGMENT = 0x8000_0000;

    private final int maxRecordBytes;
    /** The record being assembled, or null between records. */
    private CompositeByteBuf record;
    /** The fragment header read so far, and how many of its 4 bytes. */
    private int header;
    private int headerBytes;
    /** Bytes of the current fragment's body still to come; -1 while its header is incomplete. */
    private long fragmentLeft = -1;
    private boolean lastFragment;
    /** After an oversize record nothing on this stream can be framed again: the rest is discarded until the close. */
    private boolean failed;

    public RecordMarkingDecoder(int maxRecordBytes) {
        if (maxRecordBytes <= 0) {
            throw new IllegalArgumentException("maxRecordBytes must be positive: " + maxRecordBytes);
        }
        this.maxRecordBytes = maxRecordBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) throws TooLongFrameException {
        if (!(message instanceof ByteBuf in)) {
            context.fireChannelRead(message);
            return;
        }
        try {
            decode(context, in);
        }
        finally {
            in.release();
        }
    }

    private void decode(ChannelHandlerContext context, ByteBuf in) throws TooLongFrameException {
        while (!failed && in.isReadable()) {
            if (fragmentLeft < 0) {
                while (headerBytes < 4 && in.isReadable()) {
                    header = (header << 8) | in.readUnsignedByte();
                    headerBytes++;
                }
                if (headerBytes < 4) {
                    return;
                }
                startFragment(context);
            }
            int take = (int) Math.min(fragmentLeft, in.readableBytes());
            if (take > 0) {
                record.addComponent(true, in.readRetainedSlice(take));
                fragmentLeft -= take;
            }
            if (fragmentLeft == 0) {
                endFragment(context);
            }
        }
    }

    private void startFragment(ChannelHandlerContext context) throws TooLongFrameException {
        long length = header & 0x7FFF_FFFFL;
        lastFragment = (header & LAST_FRAGMENT) != 0;
        header = 0;
        headerBytes = 0;
        long recordSoFar = record == null ? 0 : record.readableBytes();
        if (recordSoFar + length > maxRecordBytes) {
            failed = true;
            releaseRecord();
            throw new TooLongFrameException("RPC record of at least " + (recordSoFar + length) + " bytes exceeds the limit of " + maxRecordBytes);
        }
        if (record == null) {
            // a component per socket read: a 4 MiB reply arrives in 64 or more, and consolidating them would copy it
            record = context.alloc().compositeBuffer(Integer.MAX_VALUE);
        }
        fragmentLeft = length;
    }

    private void endFragment(ChannelHandlerContext context) {
        fragmentLeft = -1;
        if (lastFragment) {
            CompositeByteBuf complete = record;
            record = null;
            context.fireChannelRead(complete);
        }
    }

    private void releaseRecord() {
        if (record != null) {
            record.release();
            record = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        releaseRecord();
        context.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext context) {
        releaseRecord();
    }

    /** Prefixes an encoded call with a single last-fragment header (calls never exceed 2 GiB). */
    public static void writeHeader(ByteBuf out, int recordLength) {
        out.writeInt(LAST_FRAGMENT | recordLength);
    }
}
