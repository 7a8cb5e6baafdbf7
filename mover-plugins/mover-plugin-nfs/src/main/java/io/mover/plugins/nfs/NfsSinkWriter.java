package io.mover.plugins.nfs;

import io.mover.plugins.nfs.client.Fattr;
import io.mover.plugins.nfs.client.FileHandle;
import io.mover.plugins.nfs.client.NfsCalls;
import io.mover.plugins.nfs.client.NfsClient;
import io.mover.plugins.nfs.client.NfsStatus;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.SinkWriter;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes one file to a temporary name with pipelined UNSTABLE WRITEs; COMMIT every {@code commitWindow}
 * bytes and at the end. Each WRITE's data is kept until a COMMIT covers it, because the server may lose
 * unstable data when it restarts: a COMMIT whose verifier differs from a WRITE's means exactly that, and
 * those WRITEs are sent again (RFC 1813 §3.3.21). The commit sets mode and mtime with SETATTR, then RENAMEs
 * the temporary over the final name.
 *
 * <p>A file written whole by one WRITE (most small files) goes as FILE_SYNC instead: the server makes it
 * stable before it answers, so no COMMIT follows, one round trip fewer per file. So does any batch whose
 * WRITEs the server answered as stable (DATA_SYNC or FILE_SYNC), whatever was asked.
 *
 * <p>Thread-safe: {@link #write} from several threads with disjoint ranges; {@link #abort} from any thread.
 */
final class NfsSinkWriter implements SinkWriter {
    private static final int MAX_COMMIT_ROUNDS = 5;

    private final NfsSink sink;
    private final NfsTree tree;
    private final FileHandle directory;
    private final FileHandle handle;
    private final String temporary;
    private final RelativePath path;
    private final Entry entry;
    private final long commitWindow;
    private final long size;
    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
    private final AtomicLong pendingBytes = new AtomicLong();
    private final AtomicLong resent = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private volatile boolean aborted;
    private volatile boolean committed;

    private record Pending(long offset, ByteBuf data, java.util.concurrent.CompletableFuture<NfsClient.WriteResult> result) {
    }

    NfsSinkWriter(NfsSink sink, NfsTree tree, FileHandle directory, FileHandle handle, String temporary, RelativePath path, Entry entry,
            long size, long commitWindow) {
        this.sink = sink;
        this.tree = tree;
        this.directory = directory;
        this.handle = handle;
        this.temporary = temporary;
        this.path = path;
        this.entry = entry;
        this.size = size;
        this.commitWindow = commitWindow;
    }

    @Override
    public void write(long position, ByteBuffer source) {
        checkOpen();
        int chunk = tree.session().writeSize();
        // the whole file in one WRITE: stable at once, no COMMIT (an fsync on the server either way)
        int stable = position == 0 && source.remaining() == size && size <= chunk ? NfsClient.FILE_SYNC : NfsClient.UNSTABLE;
        long offset = position;
        while (source.hasRemaining()) {
            checkOpen();
            int length = Math.min(chunk, source.remaining());
            ByteBuf data = tree.session().client().rpc().allocator().directBuffer(length);
            data.writeBytes(source.slice(source.position(), length));
            source.position(source.position() + length);
            pending.add(send(offset, data, stable));
            offset += length;
        }
        if (aborted) {
            releasePending(); // an abort from another thread came while this write was sending
            checkOpen();
        }
        if (pendingBytes.get() >= commitWindow || sink.overUnstableCap()) {
            flush(false);
        }
    }


    /**
     * Waits for the WRITEs sent so far, COMMITs, and sends again whatever the server may have lost. Only
     * one thread commits at a time; WRITEs of other threads sent meanwhile wait for the next flush.
     */
    private synchronized void flush(boolean always) {
        if (!always && pendingBytes.get() < commitWindow && !sink.overUnstableCap()) {
            return; // another thread committed while this one waited for the lock: no COMMIT (an fsync on the server) for a handful of bytes
        }
        List<Pending> batch = new ArrayList<>();
        for (Pending next = pending.poll(); next != null; next = pending.poll()) {
            batch.add(next);
        }
        try {
            for (int round = 0; !batch.isEmpty(); round++) {
                if (round == MAX_COMMIT_ROUNDS) {
                    throw new MoverException(ErrorCode.IO_ERROR, "write " + tree.describe(path) + ": the server lost unstable writes " +
                            round + " times in a row (restarting?)");
                }
                List<NfsClient.WriteResult> results = awaitAll(batch);
                if (results.stream().allMatch(result -> result.committed() != NfsClient.UNSTABLE)) {
                    break; // all on stable storage already: nothing for a COMMIT to do, nothing the server can lose
                }
                commits.incrementAndGet();
                long verifier = NfsCalls.await(tree.client().commit(handle, "commit " + tree.describe(path)));
                List<Pending> lost = new ArrayList<>();
                for (int i = 0; i < batch.size(); i++) {
                    NfsClient.WriteResult result = results.get(i);
                    if (result.committed() == NfsClient.UNSTABLE && result.verifier() != verifier) {
                        resent.incrementAndGet();
                        sink.resent();
                        lost.add(resend(batch.get(i).offset(), batch.get(i).data().retainedDuplicate()));
                    }
                }
                release(batch);
                batch = lost;
            }
        }
        finally {
            release(batch);
        }
    }

    /** The results of a batch in order; a short write's rest is sent again and added to the batch. */
    private List<NfsClient.WriteResult> awaitAll(List<Pending> batch) {
        List<NfsClient.WriteResult> results = new ArrayList<>();
        for (int i = 0; i < batch.size() && i < 1_000_000; i++) {
            Pending write = batch.get(i);
            NfsClient.WriteResult result = NfsCalls.await(write.result());
            int length = write.data().readableBytes();
            if (result.count() <= 0 && length > 0) {
                throw new MoverException(ErrorCode.IO_ERROR, "write " + tree.describe(path) + ": the server wrote nothing at offset " + write.offset());
            }
            if (result.count() < length) {
                batch.add(resend(write.offset() + result.count(), write.data().retainedSlice(write.data().readerIndex() + result.count(),
                        length - result.count())));
            }
            results.add(result);
        }
        return results;
    }

    private Pending resend(long offset, ByteBuf data) {
        return send(offset, data, NfsClient.UNSTABLE);
    }

    private Pending send(long offset, ByteBuf data, int stable) {
        pendingBytes.addAndGet(data.readableBytes());
        sink.unstable(data.readableBytes());
        return new Pending(offset, data, tree.client().write(handle, offset, data, stable, "write " + tree.describe(path)));
    }

    private void releasePending() {
        List<Pending> batch = new ArrayList<>();
        for (Pending next = pending.poll(); next != null; next = pending.poll()) {
            batch.add(next);
        }
        release(batch);
    }

    private void release(List<Pending> batch) {
        for (Pending write : batch) {
            int length = write.data().readableBytes();
            pendingBytes.addAndGet(-length);
            sink.unstable(-length);
            write.result().whenComplete((result, error) -> write.data().release());
        }
        batch.clear();
    }

    @Override
    public Entry commit() {
        if (committed || aborted) {
            throw new IllegalStateException("commit after " + (committed ? "commit" : "abort") + " of " + path);
        }
        flush(true);
        NfsClient client = tree.client();
        String what = tree.describe(path);
        OptionalInt mode = OptionalInt.of(entry.attributes().posixMode().orElse(0644));
        // one round trip each: SETATTR (its reply carries the attributes the entry reports), RENAME
        Fattr written = client.setattr(handle, mode, Optional.of(entry.lastModified()), "set attributes of " + what)
                .orElseGet(() -> client.getattr(handle, "getattr " + what));
        int status = client.rename(directory, temporary, directory, path.name());
        if (status == NfsStatus.NOENT) {
            // a retransmitted RENAME whose first send succeeded: the file is there under its final name
            Optional<NfsClient.Lookup> landed = client.lookup(directory, path.name(), "lookup " + what);
            status = landed.isPresent() && landed.get().attributes().fileId() == written.fileId() ? NfsStatus.OK : status;
        }
        if (status == NfsStatus.ISDIR || status == NfsStatus.EXIST || status == NfsStatus.NOTEMPTY) {
            throw new MoverException(ErrorCode.ALREADY_EXISTS, what + " is a directory; the file cannot replace it");
        }
        NfsStatus.check(status, "rename into place " + what);
        committed = true;
        sink.closed(this);
        return NfsTree.entry(path, written);
    }

    @Override
    public void abort() {
        if (committed || aborted) {
            return;
        }
        aborted = true;
        releasePending();
        try {
            int status = tree.client().remove(directory, temporary, false);
            if (status != NfsStatus.OK && status != NfsStatus.NOENT) {
                throw NfsStatus.error(status, "remove the temporary of " + tree.describe(path));
            }
        }
        finally {
            sink.closed(this);
        }
    }

    /** COMMITs sent so far (for tests: a file written whole by one FILE_SYNC WRITE needs none). */
    long commits() {
        return commits.get();
    }

    /** WRITEs sent again because a COMMIT's verifier showed the server had restarted since (for tests and logs). */
    long resentWrites() {
        return resent.get();
    }

    String temporary() {
        return temporary;
    }

    private void checkOpen() {
        if (aborted) {
            throw new MoverException(ErrorCode.CANCELLED, "the write of " + tree.describe(path) + " was aborted");
        }
        if (committed) {
            throw new IllegalStateException("write after commit of " + path);
        }
    }
}
