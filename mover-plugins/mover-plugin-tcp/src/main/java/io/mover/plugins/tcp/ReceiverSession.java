package io.mover.plugins.tcp;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

import io.mover.plugins.tcp.Message.Block;
import io.mover.plugins.tcp.Message.Done;
import io.mover.plugins.tcp.Message.EntryReply;
import io.mover.plugins.tcp.Message.EntryRequest;
import io.mover.plugins.tcp.Message.Failure;
import io.mover.plugins.tcp.Message.FileRequest;
import io.mover.plugins.tcp.Message.Listing;
import io.mover.plugins.tcp.Message.Kept;
import io.mover.plugins.tcp.Message.PathRequest;
import io.mover.plugins.tcp.Message.Resume;
import io.mover.spi.Entry;
import io.mover.spi.FreeSpace;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.ResumableSink;
import io.mover.spi.ResumableWriter;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;
import io.netty.buffer.ByteBuf;

import static java.util.Objects.requireNonNull;

/**
 * One sender's session: the files it has open, shared by all its connections (a large file's blocks
 * arrive on several streams). Turns each request into calls on the destination {@link Sink}; every call
 * blocks, so this runs on worker threads only. Thread-safe.
 */
final class ReceiverSession {
    /** Files one sender may have open at once: bounds what a sender can make us hold. */
    static final int MAX_OPEN_FILES = 4096;

    private final String id;
    private final Sink sink;
    private final Decoders decoders;
    private final ReceiveCap cap;
    private final System.Logger logger;
    private final Map<Integer, OpenFile> files = new ConcurrentHashMap<>();
    /** Nanoseconds, summed over this session's connections, during which a connection had requests in hand (LOAD). */
    private final LongAdder busyNanos = new LongAdder();
    /** Connections of this session, and the pending abort once none is left; guarded by this. */
    private int connections;
    private Runnable cancelExpiry = () -> {};

    /**
     * @param kept bytes an earlier run left that this file keeps (RESUME)
     * @param received raw bytes received for it in this session
     */
    private record OpenFile(Entry entry, SinkWriter writer, long kept, LongAdder received) {
        OpenFile(Entry entry, SinkWriter writer) {
            this(entry, writer, 0, new LongAdder());
        }
    }

    ReceiverSession(String id, Sink sink, Decoders decoders, ReceiveCap cap, System.Logger logger) {
        this.cap = requireNonNull(cap, "cap is null");
        this.id = requireNonNull(id, "id is null");
        this.sink = requireNonNull(sink, "sink is null");
        this.decoders = requireNonNull(decoders, "decoders is null");
        this.logger = requireNonNull(logger, "logger is null");
    }

    String id() {
        return id;
    }

    synchronized void joined() {
        connections++;
        cancelExpiry.run();
        cancelExpiry = () -> {};
    }

    /** @return true when this was the last connection: the caller schedules {@link #abortAll} after a grace period */
    synchronized boolean left() {
        connections--;
        return connections == 0;
    }

    synchronized void expireWith(Runnable cancel) {
        cancelExpiry = cancel;
    }

    synchronized boolean idle() {
        return connections == 0;
    }

    /**
     * A connection of this session had requests in hand (read, not yet answered) for {@code nanos}. A connection
     * busy all the time is one whose requests wait for this end's disk or CPU, not for the link.
     */
    void busy(long nanos) {
        busyNanos.add(nanos);
    }

    /** Answers one request; never throws (a failure is a {@link Failure} reply). Releases a {@link Block}. */
    List<Message> handle(Message request) {
        int id = requestId(request);
        try {
            return switch (request) {
                case PathRequest path -> pathRequest(path);
                case EntryRequest entry -> List.of(entryRequest(entry));
                case Resume resume -> List.of(resume(resume));
                case Block block -> List.of(block(block));
                case FileRequest file -> List.of(fileRequest(file));
                default -> throw new ProtocolException("not a request: " + request.getClass().getSimpleName());
            };
        }
        catch (MoverException e) {
            return List.of(new Failure(id, e.code().name(), e.getMessage()));
        }
        catch (RuntimeException e) {
            logger.log(System.Logger.Level.WARNING, "session " + this.id + ": request " + id + " failed unexpectedly", e);
            // the details (local paths among them) stay in the receiver's log
            return List.of(new Failure(id, ErrorCode.INTERNAL.name(), "the receiver failed unexpectedly; its log says why"));
        }
        finally {
            if (request instanceof Block block) {
                block.release();
            }
        }
    }

    static int requestId(Message request) {
        return switch (request) {
            case PathRequest r -> r.id();
            case EntryRequest r -> r.id();
            case Block r -> r.id();
            case FileRequest r -> r.id();
            case Resume r -> r.id();
            default -> 0;
        };
    }

    private List<Message> pathRequest(PathRequest request) {
        if (request.type() == Wire.LOAD) {
            return List.of(new Done(request.id(), busyNanos.sum()));
        }
        if (request.type() == Wire.MACHINE) {
            return List.of(new Done(request.id(), MachineIdentity.local().answer(request.path())));
        }
        RelativePath path = RelativePath.of(request.path());
        return switch (request.type()) {
            case Wire.STAT -> List.of(new EntryReply(request.id(), sink.stat(path)));
            case Wire.LIST -> listing(request.id(), path);
            case Wire.MKDIRS -> List.of(new Done(request.id(), sink.mkdirs(path) ? 1 : 0));
            case Wire.DELETE -> {
                sink.delete(path, request.flag());
                yield List.of(new Done(request.id(), 0));
            }
            case Wire.CLEAN -> List.of(new Done(request.id(), sink.removeStaleTemporaries(path)));
            // -1: this destination cannot tell
            case Wire.SPACE -> List.of(new Done(request.id(), sink instanceof FreeSpace space ? space.usableSpace(path).orElse(-1) : -1));
            default -> throw new ProtocolException("unknown path request " + request.type());
        };
    }

    private List<Message> listing(int id, RelativePath directory) {
        List<Message> parts = new ArrayList<>();
        List<Entry> part = new ArrayList<>();
        try (Stream<Entry> entries = sink.list(directory)) {
            entries.forEach(entry -> {
                part.add(entry);
                if (part.size() == Wire.MAX_LISTING_ENTRIES) {
                    parts.add(new Listing(id, part, false));
                    part.clear();
                }
            });
        }
        parts.add(new Listing(id, part, true));
        return parts;
    }

    private Message entryRequest(EntryRequest request) {
        Entry entry = request.entry();
        if (request.type() == Wire.SET_ATTRIBUTES) {
            sink.setAttributes(entry.path(), entry);
            return new Done(request.id(), 0);
        }
        if (request.type() != Wire.OPEN || !entry.isFile()) {
            throw new ProtocolException("unknown entry request " + request.type());
        }
        checkOpen(request.file());
        put(request.file(), new OpenFile(entry, sink.create(entry.path(), entry.size(), entry)));
        return new Done(request.id(), 0);
    }

    private void checkOpen(int file) {
        if (files.size() >= MAX_OPEN_FILES) {
            throw new MoverException(ErrorCode.THROTTLED, "this sender has " + MAX_OPEN_FILES + " files open at the receiver; finish some first");
        }
        if (files.containsKey(file)) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "file id " + file + " is already open");
        }
    }

    private void put(int file, OpenFile open) {
        if (files.putIfAbsent(file, open) != null) {
            open.writer().abort();
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "file id " + file + " is already open");
        }
    }

    /**
     * RESUME: a destination that keeps partials ({@link ResumableSink}) continues the one of this key and
     * says which blocks it holds; any other opens the file afresh and keeps nothing.
     */
    private Message resume(Resume request) {
        Entry entry = request.entry();
        if (!entry.isFile()) {
            throw new ProtocolException("RESUME of a " + entry.type());
        }
        checkOpen(request.file());
        if (!(sink instanceof ResumableSink resumable)) {
            put(request.file(), new OpenFile(entry, sink.create(entry.path(), entry.size(), entry)));
            return new Kept(request.id(), List.of());
        }
        ResumableWriter writer = resumable.resume(entry.path(), entry.size(), entry, request.key());
        List<ResumableWriter.Block> kept = writer.kept().size() > Wire.MAX_KEPT ? writer.kept().subList(0, Wire.MAX_KEPT) : writer.kept();
        put(request.file(), new OpenFile(entry, writer, kept.stream().mapToLong(ResumableWriter.Block::length).sum(), new LongAdder()));
        return new Kept(request.id(), kept);
    }

    private Message block(Block block) {
        OpenFile file = file(block.file());
        long end = block.position() + block.header().rawLength();
        if (end > file.entry().size() || end < 0) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "a block ending at " + end + " lies beyond the announced size "
                    + file.entry().size() + " of " + file.entry().path());
        }
        // the cap counts what crossed the link (the encoded bytes), before the disk and the codec run
        cap.acquire((long) block.payload().readableBytes() + io.mover.spi.BlockHeader.LENGTH);
        if (block.header().codecId() == io.mover.spi.BlockHeader.ZEROS) {
            zeros(file, block);
            return new Done(block.id(), block.header().rawLength());
        }
        ByteBuf decoded = decoders.decode(block.header(), block.payload());
        try {
            ByteBuffer raw = decoded.nioBuffer();
            if (file.writer() instanceof ResumableWriter resumable) {
                resumable.write(block.position(), raw, block.header().crc32c());
            }
            else {
                file.writer().write(block.position(), raw);
            }
        }
        finally {
            decoded.release();
        }
        file.received().add(block.header().rawLength());
        return new Done(block.id(), block.header().rawLength());
    }

    /**
     * A block of zeros: nothing to decode or checksum; written from the shared zeros, or put in place without a
     * write by a sink that can ({@link io.mover.spi.SinkWriter#writeZeros}: the local sink allocates it, or leaves
     * a hole with sparse on). A resumable writer journals it with its CRC32C as any block (SPI 1.8
     * {@link ResumableWriter#writeZeros(long, int, int)}).
     */
    private void zeros(OpenFile file, Block block) {
        decoders.checkZeros(block.header());
        int length = block.header().rawLength();
        if (file.writer() instanceof ResumableWriter resumable) {
            resumable.writeZeros(block.position(), length, block.header().crc32c());
        }
        else {
            file.writer().writeZeros(block.position(), length);
        }
        file.received().add(length);
    }

    private Message fileRequest(FileRequest request) {
        if (request.type() == Wire.ABORT) {
            OpenFile file = files.remove(request.file());
            if (file != null) {
                file.writer().abort();
            }
            return new Done(request.id(), 0);
        }
        if (request.type() != Wire.COMMIT) {
            throw new ProtocolException("unknown file request " + request.type());
        }
        OpenFile file = file(request.file());
        files.remove(request.file());
        try {
            // the local sink's commit is its durable, atomic rename: only then is the sender told
            Entry committed = file.writer().commit();
            if (file.kept() > 0) {
                logger.log(System.Logger.Level.INFO, "resumed " + file.entry().path() + ": " + file.kept() + " bytes kept from an earlier run, "
                        + file.received().sum() + " received");
            }
            return new EntryReply(request.id(), Optional.of(committed));
        }
        catch (RuntimeException e) {
            file.writer().abort();
            throw e;
        }
    }

    private OpenFile file(int fileId) {
        OpenFile file = files.get(fileId);
        if (file == null) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "file id " + fileId + " is not open in this session (aborted, or never opened)");
        }
        return file;
    }

    /**
     * Ends every unfinished file: the sender is gone, or the receiver closes. A resumable one is suspended
     * (its partial stays for the sender's next run), the others are aborted.
     */
    void abortAll() {
        for (Integer fileId : List.copyOf(files.keySet())) {
            OpenFile file = files.remove(fileId);
            if (file != null) {
                try {
                    if (file.writer() instanceof ResumableWriter resumable) {
                        resumable.suspend();
                        continue;
                    }
                    file.writer().abort();
                }
                catch (RuntimeException e) {
                    logger.log(System.Logger.Level.WARNING, "session " + id + ": could not abort " + file.entry().path() + ": " + e.getMessage());
                }
            }
        }
    }
}
