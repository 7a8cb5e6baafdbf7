package io.mover.plugins.tcp;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import io.mover.plugins.tcp.Message.Done;
import io.mover.plugins.tcp.Message.EntryReply;
import io.mover.plugins.tcp.Message.EntryRequest;
import io.mover.plugins.tcp.Message.Listing;
import io.mover.plugins.tcp.Message.PathRequest;
import io.mover.plugins.tcp.Message.Welcome;
import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.FreeSpace;
import io.mover.spi.LinkSink;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;

import static java.util.Objects.requireNonNull;

/**
 * The sender: a {@link Sink} whose tree is the receiver's destination, below the URI's path. Every call
 * is a request over the link; the receiver checks every path again (it trusts nothing a sender says).
 * Thread-safe.
 */
final class PeerSink implements Sink, LinkSink, FreeSpace {
    private final PeerLink link;
    /** The URI's path under the receiver's root: every path here is resolved below it. */
    private final RelativePath base;
    private final EndpointInfo info;
    private final Set<Byte> codecs;
    private final AtomicInteger files = new AtomicInteger();
    private final boolean answersSpace;
    /** The writers' copies of blocks in flight (kept until acknowledged, for a resend), reused once settled. */
    private final BlockBuffers buffers = new BlockBuffers(BlockBuffers.DEFAULT_MAX_IDLE);

    PeerSink(PeerLink link, RelativePath base) {
        this.link = requireNonNull(link, "link is null");
        this.base = requireNonNull(base, "base is null");
        Welcome welcome = link.welcome();
        this.answersSpace = (welcome.flags() & Welcome.FREE_SPACE) != 0;
        this.info = new EndpointInfo(Duration.ofNanos(Math.max(1, welcome.mtimePrecisionNanos())), Set.of(),
                (welcome.flags() & Welcome.CASE_SENSITIVE) != 0, (welcome.flags() & Welcome.POSIX_MODE) != 0,
                (welcome.flags() & Welcome.MODIFICATION_TIME) != 0);
        Set<Byte> ids = new HashSet<>();
        for (byte id : link.hello().codecs()) {
            ids.add(id);
        }
        this.codecs = Set.copyOf(ids);
        if (!base.isRoot()) {
            mkdirs(RelativePath.ROOT);
        }
    }

    BlockBuffers buffers() {
        return buffers;
    }

    @Override
    public Set<Byte> decodableCodecs() {
        return codecs;
    }

    @Override
    public Load load() {
        return link.load();
    }

    @Override
    public boolean sameHost() {
        return link.sameHost();
    }

    @Override
    public boolean sameMachine() {
        return link.sameMachine();
    }

    /** What the receiver's destination says; empty from a receiver that does not answer, or a destination that cannot tell. */
    @Override
    public OptionalLong usableSpace(RelativePath directory) {
        if (!answersSpace) {
            return OptionalLong.empty();
        }
        long bytes = done(link.call(id -> new PathRequest(id, Wire.SPACE, remote(directory), false)));
        return bytes < 0 ? OptionalLong.empty() : OptionalLong.of(bytes);
    }

    @Override
    public EndpointInfo info() {
        return info;
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        Message reply = link.call(id -> new PathRequest(id, Wire.STAT, remote(path), false)).getLast();
        if (reply instanceof EntryReply entry) {
            return entry.entry().map(this::relative);
        }
        throw unexpected(reply);
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        List<Message> parts = link.call(id -> new PathRequest(id, Wire.LIST, remote(directory), false));
        return parts.stream().flatMap(part -> part instanceof Listing listing ? listing.entries().stream() : Stream.of()).map(this::relative);
    }

    @Override
    public boolean mkdirs(RelativePath directory) {
        return done(link.call(id -> new PathRequest(id, Wire.MKDIRS, remote(directory), false))) == 1;
    }

    @Override
    public SinkWriter create(RelativePath path, long size, Entry entry) {
        int file = files.incrementAndGet();
        Entry target = new Entry(base.resolve(path), entry.type(), size, entry.lastModified(), entry.attributes());
        if (size < link.resumeMinSize()) {
            done(link.call(id -> new EntryRequest(id, Wire.OPEN, file, target)));
            return new PeerWriter(link, this, file, target, List.of());
        }
        Message reply = link.call(id -> new Message.Resume(id, file, target, versionKey(target))).getLast();
        if (reply instanceof Message.Kept kept) {
            return new PeerWriter(link, this, file, target, kept.blocks());
        }
        throw unexpected(reply);
    }

    /**
     * The source file's version as the receiver keys its partial: the path, size and modification time. A
     * file changed since the partial was written has another key (a fresh partial); one changed with its
     * size and time kept is still caught, since every kept block is compared by CRC32C before it is skipped.
     */
    static String versionKey(Entry entry) {
        String identity = entry.path() + "\n" + entry.size() + "\n" + entry.lastModified().getEpochSecond() + "." + entry.lastModified().getNano();
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(identity.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest, 0, 16);
        }
        catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    @Override
    public void delete(RelativePath path, boolean recursive) {
        if (path.isRoot()) {
            throw new MoverException(ErrorCode.INVALID_PATH, "the root of " + (base.isRoot() ? "the receiver's destination" : base) + " cannot be deleted");
        }
        done(link.call(id -> new PathRequest(id, Wire.DELETE, remote(path), recursive)));
    }

    @Override
    public void setAttributes(RelativePath path, Entry entry) {
        Entry target = new Entry(base.resolve(path), entry.type(), entry.size(), entry.lastModified(), entry.attributes());
        done(link.call(id -> new EntryRequest(id, Wire.SET_ATTRIBUTES, 0, target)));
    }

    @Override
    public int removeStaleTemporaries(RelativePath directory) {
        return (int) done(link.call(id -> new PathRequest(id, Wire.CLEAN, remote(directory), false)));
    }

    @Override
    public void close() {
        link.close();
    }

    PeerLink link() {
        return link;
    }

    private String remote(RelativePath path) {
        return base.resolve(path).toString();
    }

    /** An entry as the receiver listed it (below its root), seen from this sink's root. */
    Entry relative(Entry entry) {
        if (!entry.path().startsWith(base)) {
            throw new MoverException(ErrorCode.INTERNAL, "the receiver answered with " + entry.path() + ", outside " + base);
        }
        List<String> segments = entry.path().segments().subList(base.depth(), entry.path().depth());
        return new Entry(RelativePath.of(String.join("/", segments)), entry.type(), entry.size(), entry.lastModified(), entry.attributes());
    }

    private static long done(List<Message> reply) {
        if (reply.getLast() instanceof Done done) {
            return done.value();
        }
        throw unexpected(reply.getLast());
    }

    private static MoverException unexpected(Message reply) {
        return new MoverException(ErrorCode.INTERNAL, "unexpected reply from the receiver: " + reply.getClass().getSimpleName());
    }
}
