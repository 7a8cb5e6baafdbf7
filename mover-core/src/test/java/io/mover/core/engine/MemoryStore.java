package io.mover.core.engine;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.mover.spi.Attributes;
import io.mover.spi.EndpointInfo;
import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkWriter;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

/**
 * A tree in memory that is both a source and a sink, faithful to the SPI contract (temporaries
 * invisible until commit, positional writes, NOT_FOUND / NOT_A_DIRECTORY), with faults to inject.
 */
public final class MemoryStore implements Source, Sink, io.mover.spi.PluginCounters {
    static final EndpointInfo INFO = new EndpointInfo(Duration.ofNanos(1), Set.of(), true, false, true);

    record Node(EntryType type, byte[] data, Instant mtime) {}

    final ConcurrentSkipListMap<RelativePath, Node> nodes = new ConcurrentSkipListMap<>();
    final Map<RelativePath, byte[]> temporaries = new ConcurrentHashMap<>();
    /** Reads of a path fail this many times with the mapped code. */
    final Map<String, AtomicInteger> readFaults = new ConcurrentHashMap<>();
    volatile ErrorCode readFaultCode = ErrorCode.IO_ERROR;
    /** Writes fail with NO_SPACE once this many bytes were written. */
    final AtomicLong spaceLeft = new AtomicLong(Long.MAX_VALUE);
    /** Flip a byte of every file whose name starts with this, after the write (a lying disk). */
    volatile String corruptPrefix = "\0";
    volatile long writeDelayNanos;
    /** Writes wait (at most a minute) until their writer is aborted, like a request waiting out a throttled service. */
    volatile boolean writesBlockUntilAbort;
    /** Reads wait (at most a minute) until their reader is aborted, like a read waiting out a throttled service. */
    volatile boolean readsBlockUntilAbort;
    /** Reads waiting for their abort now. */
    final AtomicInteger readsWaiting = new AtomicInteger();
    final java.util.concurrent.atomic.LongAdder writes = new java.util.concurrent.atomic.LongAdder();
    /** While set, reads wait until it is counted down (a job that stays running until the test lets it go). */
    volatile java.util.concurrent.CountDownLatch readGate;
    final AtomicInteger commits = new AtomicInteger();
    /** {@link #finish()} calls, and the commits seen by the first; a failure it throws when set. */
    final AtomicInteger finishes = new AtomicInteger();
    volatile int commitsAtFinish = -1;
    volatile MoverException finishFailure;
    final AtomicInteger listings = new AtomicInteger();
    /** When set, thrown by {@link #setAttributes} of a directory (a plugin failing outside its contract). */
    volatile RuntimeException directoryAttributesFailure;
    /** When set, thrown by reads at or after {@link #readErrorFrom} (an Error, not a MoverException, out of a plugin). */
    volatile Error readError;
    volatile long readErrorFrom = Long.MAX_VALUE;
    /** When set, {@link #readError} is thrown by reads of this path only. */
    volatile String readErrorPath;
    /** When set, reads of this one path count {@link #heldReached} down and wait (at most 60 s) for {@link #heldRelease}. */
    volatile String heldPath;
    final java.util.concurrent.CountDownLatch heldReached = new java.util.concurrent.CountDownLatch(1);
    final java.util.concurrent.CountDownLatch heldRelease = new java.util.concurrent.CountDownLatch(1);
    /** Paths in the order their first read began. */
    final List<String> readOrder = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** When set, the root's creation time in {@link #stat} (a store that knows creation times, as a local disk does). */
    volatile Instant rootCreated;

    MemoryStore() {
        nodes.put(RelativePath.ROOT, new Node(EntryType.DIRECTORY, null, Instant.EPOCH));
    }

    public void file(String path, byte[] data, Instant mtime) {
        RelativePath p = RelativePath.of(path);
        mkdirs(p.parent());
        nodes.put(p, new Node(EntryType.FILE, data, mtime));
    }

    /** A symbolic link whose target this store does not know (a sync skips it). */
    public void link(String path, Instant mtime) {
        RelativePath p = RelativePath.of(path);
        mkdirs(p.parent());
        nodes.put(p, new Node(EntryType.SYMLINK, null, mtime));
    }

    public void dir(String path, Instant mtime) {
        mkdirs(RelativePath.of(path));
        nodes.put(RelativePath.of(path), new Node(EntryType.DIRECTORY, null, mtime));
    }

    /** Reads of {@code path} fail this many times (tests outside this package). */
    public void failReads(String path, int times) {
        readFaults.put(path, new AtomicInteger(times));
    }

    /** Every block write sleeps this long (tests outside this package). */
    public void writeDelay(Duration delay) {
        writeDelayNanos = delay.toNanos();
    }

    /** Reads wait from now on, until {@link #releaseReads()} (at most 60 s each, then they fail). */
    public void holdReads() {
        readGate = new java.util.concurrent.CountDownLatch(1);
    }

    public void releaseReads() {
        java.util.concurrent.CountDownLatch gate = readGate;
        readGate = null;
        if (gate != null) {
            gate.countDown();
        }
    }

    /** Calls of {@link #list}: a sync with a catalog makes none at the destination. */
    public int listCount() {
        return listings.get();
    }

    public int commitCount() {
        return commits.get();
    }

    /** The paths of the files held, in order. */
    public List<String> filePaths() {
        return nodes.entrySet().stream().filter(e -> e.getValue().type() == EntryType.FILE).map(e -> e.getKey().toString()).toList();
    }

    public byte[] data(String path) {
        Node node = nodes.get(RelativePath.of(path));
        return node == null ? null : node.data();
    }

    @Override
    public EndpointInfo info() {
        return INFO;
    }

    @Override
    public Optional<Entry> stat(RelativePath path) {
        Node node = nodes.get(path);
        Instant created = rootCreated;
        if (node != null && path.isRoot() && created != null) {
            return Optional.of(new Entry(path, node.type(), 0, node.mtime(),
                    new Attributes(java.util.OptionalInt.empty(), Optional.of(created), Optional.empty(), java.util.Map.of(), java.util.Map.of())));
        }
        return node == null ? Optional.empty() : Optional.of(entry(path, node));
    }

    private static Entry entry(RelativePath path, Node node) {
        return new Entry(path, node.type(), node.data() == null ? 0 : node.data().length, node.mtime(), Attributes.NONE);
    }

    @Override
    public Stream<Entry> list(RelativePath directory) {
        listings.incrementAndGet();
        Node node = nodes.get(directory);
        if (node == null) {
            throw new MoverException(ErrorCode.NOT_FOUND, "no directory " + directory);
        }
        if (node.type() != EntryType.DIRECTORY) {
            throw new MoverException(ErrorCode.NOT_A_DIRECTORY, directory + " is a file");
        }
        List<Entry> children = new ArrayList<>();
        nodes.forEach((path, child) -> {
            if (!path.isRoot() && path.parent().equals(directory)) {
                children.add(entry(path, child));
            }
        });
        return children.stream();
    }

    @Override
    public SourceReader open(RelativePath path) {
        Node node = nodes.get(path);
        if (node == null || node.type() != EntryType.FILE) {
            throw new MoverException(ErrorCode.NOT_FOUND, "no file " + path);
        }
        byte[] data = node.data();
        return new SourceReader() {
            private volatile boolean aborted;

            @Override
            public long size() {
                return data.length;
            }

            @Override
            public void abort() {
                aborted = true;
            }

            @Override
            public int read(long position, ByteBuffer destination) {
                if (readsBlockUntilAbort) {
                    readsWaiting.incrementAndGet();
                    try {
                        for (long end = System.nanoTime() + 60_000_000_000L; !aborted && System.nanoTime() < end; ) {
                            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                        }
                    }
                    finally {
                        readsWaiting.decrementAndGet();
                    }
                    if (aborted) {
                        throw new MoverException(ErrorCode.CANCELLED, "the read of " + path + " was aborted");
                    }
                }
                java.util.concurrent.CountDownLatch gate = readGate;
                try {
                    if (gate != null && !gate.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
                        throw new MoverException(ErrorCode.TIMEOUT, "reads held for 60 s");
                    }
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new MoverException(ErrorCode.CANCELLED, "interrupted while reads were held");
                }
                if (position == 0) {
                    readOrder.add(path.toString());
                }
                if (path.toString().equals(heldPath)) {
                    heldReached.countDown();
                    try {
                        if (!heldRelease.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
                            throw new MoverException(ErrorCode.TIMEOUT, "held for 60 s");
                        }
                    }
                    catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new MoverException(ErrorCode.CANCELLED, "interrupted while held");
                    }
                }
                Error error = readError;
                if (error != null && position >= readErrorFrom && (readErrorPath == null || readErrorPath.equals(path.toString()))) {
                    throw error;
                }
                AtomicInteger faults = readFaults.get(path.toString());
                if (faults != null && faults.getAndDecrement() > 0) {
                    throw new MoverException(readFaultCode, "injected read fault on " + path);
                }
                int n = (int) Math.max(0, Math.min(destination.remaining(), data.length - position));
                destination.put(data, (int) position, n);
                return n;
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public synchronized boolean mkdirs(RelativePath directory) {
        boolean created = false;
        RelativePath current = RelativePath.ROOT;
        for (String segment : directory.segments()) {
            current = current.resolve(segment);
            Node node = nodes.get(current);
            if (node == null) {
                nodes.put(current, new Node(EntryType.DIRECTORY, null, Instant.now()));
                created = true;
            }
            else if (node.type() != EntryType.DIRECTORY) {
                throw new MoverException(ErrorCode.NOT_A_DIRECTORY, current + " is a file");
            }
        }
        return created;
    }

    /** The folders {@link #removeStaleTemporaries} was asked to clean, in order. */
    final List<RelativePath> cleaned = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public int removeStaleTemporaries(RelativePath directory) {
        cleaned.add(directory);
        return 0;
    }

    @Override
    public SinkWriter create(RelativePath path, long size, Entry entry) {
        if (!nodes.containsKey(path.parent())) {
            throw new MoverException(ErrorCode.NOT_FOUND, "no directory " + path.parent());
        }
        byte[] buffer = new byte[(int) size];
        temporaries.put(path, buffer);
        return new SinkWriter() {
            private volatile boolean done;

            @Override
            public void write(long position, ByteBuffer source) {
                if (done) {
                    throw new MoverException(ErrorCode.CANCELLED, "aborted");
                }
                int n = source.remaining();
                if (spaceLeft.addAndGet(-n) < 0) {
                    throw new MoverException(ErrorCode.NO_SPACE, "no space left on the memory device");
                }
                if (writeDelayNanos > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(writeDelayNanos);
                }
                for (long end = System.nanoTime() + 60_000_000_000L; writesBlockUntilAbort && !done && System.nanoTime() < end; ) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                }
                if (done) {
                    throw new MoverException(ErrorCode.CANCELLED, "aborted");
                }
                writes.increment();
                source.get(buffer, (int) position, n);
            }

            @Override
            public Entry commit() {
                byte[] data = Arrays.copyOf(buffer, buffer.length);
                if (path.name().startsWith(corruptPrefix) && data.length > 0) {
                    data[0] ^= 1;
                }
                nodes.put(path, new Node(EntryType.FILE, data, entry.lastModified()));
                temporaries.remove(path);
                done = true;
                commits.incrementAndGet();
                return entry(path, nodes.get(path));
            }

            @Override
            public void abort() {
                done = true;
                temporaries.remove(path);
            }
        };
    }

    @Override
    public void delete(RelativePath path, boolean recursive) {
        nodes.keySet().removeIf(p -> p.equals(path) || (recursive && p.startsWith(path)));
    }

    @Override
    public void setAttributes(RelativePath path, Entry entry) {
        Node node = nodes.get(path);
        RuntimeException failure = directoryAttributesFailure;
        if (failure != null && node != null && node.type() == EntryType.DIRECTORY) {
            throw failure;
        }
        if (node != null) {
            nodes.put(path, new Node(node.type(), node.data(), entry.lastModified()));
        }
    }

    @Override
    public void finish() {
        if (finishes.incrementAndGet() == 1) {
            commitsAtFinish = commits.get();
        }
        if (finishFailure != null) {
            throw finishFailure;
        }
    }

    @Override
    public Map<String, Long> counters() {
        return Map.of("memory.writes", writes.sum());
    }

    @Override
    public void close() {}
}
