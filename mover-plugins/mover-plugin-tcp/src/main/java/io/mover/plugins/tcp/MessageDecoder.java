package io.mover.plugins.tcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.mover.plugins.tcp.Message.Auth;
import io.mover.plugins.tcp.Message.Block;
import io.mover.plugins.tcp.Message.Done;
import io.mover.plugins.tcp.Message.EntryReply;
import io.mover.plugins.tcp.Message.EntryRequest;
import io.mover.plugins.tcp.Message.Failure;
import io.mover.plugins.tcp.Message.FileRequest;
import io.mover.plugins.tcp.Message.Hello;
import io.mover.plugins.tcp.Message.Listing;
import io.mover.plugins.tcp.Message.Kept;
import io.mover.plugins.tcp.Message.PathRequest;
import io.mover.plugins.tcp.Message.Resume;
import io.mover.plugins.tcp.Message.StartTls;
import io.mover.plugins.tcp.Message.Welcome;
import io.mover.spi.BlockHeader;
import io.mover.spi.Entry;
import io.mover.spi.MoverException;
import io.mover.spi.ResumableWriter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;

/**
 * Frame (type byte + body, length prefix already removed) to {@link Message}. Stateless and shared.
 * A {@link Block}'s payload is a retained slice of the frame (no copy): whoever takes the message releases it.
 * Anything malformed, or bytes left over after a message, is a {@link ProtocolException}.
 */
@Sharable
final class MessageDecoder extends MessageToMessageDecoder<ByteBuf> {
    static final MessageDecoder INSTANCE = new MessageDecoder();

    private MessageDecoder() {
        super(ByteBuf.class);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
        out.add(decode(frame));
    }

    static Message decode(ByteBuf frame) {
        try {
            Wire.need(frame, 1);
            byte type = frame.readByte();
            Message message = switch (type) {
                case Wire.HELLO -> hello(frame);
                case Wire.START_TLS -> {
                    Wire.need(frame, 2);
                    yield new StartTls(frame.readUnsignedShort());
                }
                case Wire.AUTH -> {
                    Wire.need(frame, 2);
                    int version = frame.readUnsignedShort();
                    byte[] session = Wire.readBytes(frame, Wire.SESSION);
                    String jobKey = Wire.readString(frame);
                    if (!jobKey.matches("[A-Za-z0-9_-]{1,64}")) {
                        throw new ProtocolException("invalid job key in AUTH");
                    }
                    Wire.need(frame, 2);
                    yield new Auth(version, session, jobKey, frame.readUnsignedShort(), Wire.readBytes(frame, Wire.NONCE), Wire.readBytes(frame, Wire.MAC));
                }
                case Wire.WELCOME -> {
                    byte[] mac = Wire.readBytes(frame, Wire.MAC);
                    Wire.need(frame, 12);
                    yield new Welcome(mac, frame.readLong(), frame.readInt());
                }
                case Wire.STAT, Wire.LIST, Wire.MKDIRS, Wire.DELETE, Wire.CLEAN, Wire.SPACE, Wire.LOAD, Wire.MACHINE -> {
                    int id = id(frame);
                    String path = Wire.readString(frame);
                    Wire.need(frame, 1);
                    yield new PathRequest(id, type, path, frame.readBoolean());
                }
                case Wire.SET_ATTRIBUTES, Wire.OPEN -> {
                    int id = id(frame);
                    Wire.need(frame, 4);
                    yield new EntryRequest(id, type, frame.readInt(), Wire.readEntry(frame));
                }
                case Wire.BLOCK -> block(frame);
                case Wire.RESUME -> {
                    int id = id(frame);
                    Wire.need(frame, 4);
                    int file = frame.readInt();
                    Entry entry = Wire.readEntry(frame);
                    String key = Wire.readString(frame);
                    if (!key.matches("[A-Za-z0-9_-]{1,64}")) {
                        throw new ProtocolException("invalid key in RESUME");
                    }
                    yield new Resume(id, file, entry, key);
                }
                case Wire.KEPT -> kept(frame);
                case Wire.COMMIT, Wire.ABORT -> {
                    int id = id(frame);
                    Wire.need(frame, 4);
                    yield new FileRequest(id, type, frame.readInt());
                }
                case Wire.DONE -> {
                    int id = id(frame);
                    Wire.need(frame, 8);
                    yield new Done(id, frame.readLong());
                }
                case Wire.ENTRY -> {
                    int id = id(frame);
                    Wire.need(frame, 1);
                    yield new EntryReply(id, frame.readBoolean() ? Optional.of(Wire.readEntry(frame)) : Optional.empty());
                }
                case Wire.LISTING -> listing(frame);
                case Wire.FAILURE -> new Failure(id(frame), Wire.readString(frame), Wire.readString(frame));
                default -> throw new ProtocolException(String.format("unknown message type 0x%02x", type & 0xff));
            };
            if (frame.isReadable()) {
                if (message instanceof Block block) {
                    block.payload().release();
                }
                throw new ProtocolException(frame.readableBytes() + " unexpected bytes after a message of type " + type);
            }
            return message;
        }
        catch (MoverException e) {
            // a field a value type refused (a path with '..', a block length out of range)
            throw new ProtocolException(e.getMessage());
        }
    }

    private static Hello hello(ByteBuf frame) {
        Wire.need(frame, 2);
        int version = frame.readUnsignedShort();
        byte[] nonce = Wire.readBytes(frame, Wire.NONCE);
        Wire.need(frame, 8 + 1);
        int maxFrame = frame.readInt();
        int window = frame.readInt();
        return new Hello(version, nonce, maxFrame, window, Wire.readBytes(frame, frame.readUnsignedByte()));
    }

    private static Block block(ByteBuf frame) {
        int id = id(frame);
        Wire.need(frame, 4 + 8 + BlockHeader.LENGTH);
        int file = frame.readInt();
        long position = frame.readLong();
        if (position < 0) {
            throw new ProtocolException("negative block position " + position);
        }
        BlockHeader header = BlockHeader.readFrom(frame.nioBuffer(frame.readerIndex(), BlockHeader.LENGTH));
        frame.skipBytes(BlockHeader.LENGTH);
        if (header.encodedLength() != frame.readableBytes()) {
            throw new ProtocolException("block header announces " + header.encodedLength() + " bytes, the frame holds " + frame.readableBytes());
        }
        ByteBuf payload = frame.readRetainedSlice(header.encodedLength());
        return new Block(id, file, position, header, payload);
    }

    private static Kept kept(ByteBuf frame) {
        int id = id(frame);
        Wire.need(frame, 4);
        int count = frame.readInt();
        if (count < 0 || count > Wire.MAX_KEPT) {
            throw new ProtocolException("a KEPT reply of " + count + " blocks exceeds the limit of " + Wire.MAX_KEPT);
        }
        Wire.need(frame, count * 16);
        List<ResumableWriter.Block> blocks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long position = frame.readLong();
            int length = frame.readInt();
            int crc = frame.readInt();
            if (position < 0 || length < 0) {
                throw new ProtocolException("a kept block at " + position + " of " + length + " bytes");
            }
            blocks.add(new ResumableWriter.Block(position, length, crc));
        }
        return new Kept(id, blocks);
    }

    private static Listing listing(ByteBuf frame) {
        int id = id(frame);
        Wire.need(frame, 3);
        boolean last = frame.readBoolean();
        int count = frame.readUnsignedShort();
        if (count > Wire.MAX_LISTING_ENTRIES) {
            throw new ProtocolException("a listing part of " + count + " entries exceeds the limit of " + Wire.MAX_LISTING_ENTRIES);
        }
        List<Entry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(Wire.readEntry(frame));
        }
        return new Listing(id, entries, last);
    }

    private static int id(ByteBuf frame) {
        Wire.need(frame, 4);
        return frame.readInt();
    }
}
