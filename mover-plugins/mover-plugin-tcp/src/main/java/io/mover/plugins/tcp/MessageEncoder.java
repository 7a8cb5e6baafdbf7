package io.mover.plugins.tcp;

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
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;

/**
 * {@link Message} to its frame: a 4-byte length, the type byte and the body. Stateless and shared. A
 * {@link Block}'s payload follows its header as a second buffer (no copy), retained for the write; Netty
 * releases the message itself after encoding.
 */
@Sharable
final class MessageEncoder extends MessageToMessageEncoder<Message> {
    static final MessageEncoder INSTANCE = new MessageEncoder();

    private MessageEncoder() {
        super(Message.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Message message, List<Object> out) {
        encode(ctx.alloc(), message, out);
    }

    static void encode(ByteBufAllocator alloc, Message message, List<Object> out) {
        ByteBuf buf = alloc.buffer(64);
        try {
            buf.writeInt(0);
            write(buf, message);
            int length = buf.readableBytes() - 4;
            if (message instanceof Block block) {
                length += block.payload().readableBytes();
            }
            buf.setInt(0, length);
            out.add(buf);
            buf = null;
            // a block of zeros has no payload: nothing more for the channel's outbound buffer to carry
            if (message instanceof Block block && block.payload().isReadable()) {
                out.add(block.payload().retain());
            }
        }
        finally {
            if (buf != null) {
                buf.release();
            }
        }
    }

    private static void write(ByteBuf buf, Message message) {
        switch (message) {
            case StartTls start -> buf.writeByte(Wire.START_TLS).writeShort(start.version());
            case Hello hello -> {
                buf.writeByte(Wire.HELLO).writeShort(hello.version()).writeBytes(hello.nonce()).writeInt(hello.maxFrame()).writeInt(hello.window());
                buf.writeByte(hello.codecs().length).writeBytes(hello.codecs());
            }
            case Auth auth -> {
                buf.writeByte(Wire.AUTH).writeShort(auth.version()).writeBytes(auth.session());
                Wire.writeString(buf, auth.jobKey());
                buf.writeShort(auth.stream()).writeBytes(auth.nonce()).writeBytes(auth.mac());
            }
            case Welcome welcome -> buf.writeByte(Wire.WELCOME).writeBytes(welcome.mac()).writeLong(welcome.mtimePrecisionNanos()).writeInt(welcome.flags());
            case PathRequest request -> {
                buf.writeByte(request.type()).writeInt(request.id());
                Wire.writeString(buf, request.path());
                buf.writeBoolean(request.flag());
            }
            case EntryRequest request -> {
                buf.writeByte(request.type()).writeInt(request.id()).writeInt(request.file());
                Wire.writeEntry(buf, request.entry());
            }
            case Block block -> {
                buf.writeByte(Wire.BLOCK).writeInt(block.id()).writeInt(block.file()).writeLong(block.position());
                buf.ensureWritable(BlockHeader.LENGTH);
                block.header().writeTo(buf.nioBuffer(buf.writerIndex(), BlockHeader.LENGTH));
                buf.writerIndex(buf.writerIndex() + BlockHeader.LENGTH);
            }
            case FileRequest request -> buf.writeByte(request.type()).writeInt(request.id()).writeInt(request.file());
            case Resume resume -> {
                buf.writeByte(Wire.RESUME).writeInt(resume.id()).writeInt(resume.file());
                Wire.writeEntry(buf, resume.entry());
                Wire.writeString(buf, resume.key());
            }
            case Kept kept -> {
                buf.writeByte(Wire.KEPT).writeInt(kept.id()).writeInt(kept.blocks().size());
                kept.blocks().forEach(block -> buf.writeLong(block.position()).writeInt(block.length()).writeInt(block.crc32c()));
            }
            case Done done -> buf.writeByte(Wire.DONE).writeInt(done.id()).writeLong(done.value());
            case EntryReply reply -> {
                buf.writeByte(Wire.ENTRY).writeInt(reply.id());
                Optional<Entry> entry = reply.entry();
                buf.writeBoolean(entry.isPresent());
                entry.ifPresent(e -> Wire.writeEntry(buf, e));
            }
            case Listing listing -> {
                buf.writeByte(Wire.LISTING).writeInt(listing.id()).writeBoolean(listing.last()).writeShort(listing.entries().size());
                listing.entries().forEach(e -> Wire.writeEntry(buf, e));
            }
            case Failure failure -> {
                buf.writeByte(Wire.FAILURE).writeInt(failure.id());
                Wire.writeString(buf, failure.code());
                Wire.writeString(buf, failure.message().length() > 1000 ? failure.message().substring(0, 1000) : failure.message());
            }
        }
    }
}
