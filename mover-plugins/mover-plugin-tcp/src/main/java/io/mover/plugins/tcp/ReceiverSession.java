package io.mover.plugins.tcp;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import io.mover.plugins.tcp.Message.Block;
import io.mover.plugins.tcp.Message.Done;
import io.mover.plugins.tcp.Message.EntryReply;
import io.mover.plugins.tcp.Message.EntryRequest;
import io.mover.plugins.tcp.Message.Failure;
import io.mover.plugins.tcp.Message.FileRequest;
import io.mover.plugins.tcp.Message.Listing;
import io.mover.plugins.tcp.Message.PathRequest;
import io.mover.spi.Entry;
import io.mover.spi.FreeSpace;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

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
    private final System.Logger logger;
    private final Map<Integer, OpenFile> files = new ConcurrentHashMap<>();
    /** Connections of this session, and the pending abort once none is left; guarded by this. */
    private int connections;
    private Runnable cancelExpiry = () -> {};

    private record OpenFile(Entry entry, SinkWriter writer) {}

    ReceiverSession(String id, Sink sink, Decoders decoders, System.Logger logger) {
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

    /** Answers one request; never throws (a failure is a {@link Failure} reply). Releases a {@link Block}. */
    List<Message> handle(Message request) {
        int id = requestId(request);
        try {
            return switch (request) {
                case PathRequest path -> pathRequest(path);
                case EntryRequest entry -> List.of(entryRequest(entry));
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
            default -> 0;
        };
    }

    private List<Message> pathRequest(PathRequest request) {
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
        if (files.size() >= MAX_OPEN_FILES) {
            throw new MoverException(ErrorCode.THROTTLED, "this sender has " + MAX_OPEN_FILES + " files open at the receiver; finish some first");
        }
        if (files.containsKey(request.file())) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "file id " + request.file() + " is already open");
        }
        SinkWriter writer = sink.create(entry.path(), entry.size(), entry);
        if (files.putIfAbsent(request.file(), new OpenFile(entry, writer)) != null) {
            writer.abort();
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "file id " + request.file() + " is already open");
        }
        return new Done(request.id(), 0);
    }

    private Message block(Block block) {
        OpenFile file = file(block.file());
        long end = block.position() + block.header().rawLength();
        if (end > file.entry().size() || end < 0) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "a block ending at " + end + " lies beyond the announced size "
                    + file.entry().size() + " of " + file.entry().path());
        }
        ByteBuffer raw = decoders.decode(block.header(), block.payload().nioBuffer());
        file.writer().write(block.position(), raw);
        return new Done(block.id(), block.header().rawLength());
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

    /** Aborts every unfinished file: the sender is gone, or the receiver closes. */
    void abortAll() {
        for (Integer fileId : List.copyOf(files.keySet())) {
            OpenFile file = files.remove(fileId);
            if (file != null) {
                try {
                    file.writer().abort();
                }
                catch (RuntimeException e) {
                    logger.log(System.Logger.Level.WARNING, "session " + id + ": could not abort " + file.entry().path() + ": " + e.getMessage());
                }
            }
        }
    }
}
