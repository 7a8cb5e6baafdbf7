package io.mover.plugins.nfs.client;

import io.mover.plugins.nfs.rpc.RpcClient;
import io.mover.plugins.nfs.rpc.Xdr;
import io.netty.buffer.ByteBuf;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static io.mover.plugins.nfs.client.NfsCalls.await;
import static java.util.Objects.requireNonNull;

/**
 * NFSv3 procedures (RFC 1813 §3.3) over one {@link RpcClient}. READ, WRITE and COMMIT are asynchronous so
 * that callers pipeline them; the rest block (engine threads only). Every failure is a
 * {@link io.mover.spi.MoverException} whose message names the operation and the path given as {@code what}.
 *
 * <p>Thread-safe.
 */
public final class NfsClient {
    public static final int UNSTABLE = 0;
    public static final int FILE_SYNC = 2;
    public static final int ACCESS_READ = 0x01;
    public static final int ACCESS_MODIFY = 0x04;
    public static final int ACCESS_EXTEND = 0x08;

    private final RpcClient rpc;

    public NfsClient(RpcClient rpc) {
        this.rpc = requireNonNull(rpc, "rpc is null");
    }

    public RpcClient rpc() {
        return rpc;
    }

    public record Lookup(FileHandle handle, Fattr attributes) {
    }

    public record DirEntry(String name, FileHandle handle, Fattr attributes) {
    }

    public record ReadResult(ByteBuf data, boolean eof) {
    }

    public record WriteResult(int count, int committed, long verifier) {
    }

    public record FsInfo(int readMax, int readPreferred, int writeMax, int writePreferred, int directoryPreferred) {
    }

    public record FsStat(long totalBytes, long freeBytes, long availableBytes) {
    }

    public Fattr getattr(FileHandle handle, String what) {
        return blocking(1, out -> NfsXdr.writeHandle(out, handle), in -> {
            NfsStatus.check(Xdr.readInt(in), what);
            return NfsXdr.readFattr(in);
        });
    }

    /** SETATTR; returns the attributes after the change when the server sends them (it usually does). */
    public Optional<Fattr> setattr(FileHandle handle, OptionalInt mode, Optional<Instant> mtime, String what) {
        return blocking(2, out -> {
            NfsXdr.writeHandle(out, handle);
            NfsXdr.writeSattr(out, mode, mtime);
            Xdr.writeBoolean(out, false); // no guard
        }, in -> {
            NfsStatus.check(Xdr.readInt(in), what);
            return NfsXdr.readWccAfter(in);
        });
    }

    /** The named entry, or empty when it does not exist. */
    public Optional<Lookup> lookup(FileHandle directory, String name, String what) {
        return blocking(3, out -> NfsXdr.writeDirOp(out, directory, name), in -> {
            int status = Xdr.readInt(in);
            if (status == NfsStatus.NOENT) {
                return Optional.empty();
            }
            NfsStatus.check(status, what);
            FileHandle handle = NfsXdr.readHandle(in);
            Optional<Fattr> attributes = NfsXdr.readPostOpAttr(in);
            return Optional.of(new Lookup(handle, attributes.orElseGet(() -> getattr(handle, what))));
        });
    }

    /** The subset of {@code access} bits the server grants this client's credentials. */
    public int access(FileHandle handle, int access, String what) {
        return blocking(4, out -> {
            NfsXdr.writeHandle(out, handle);
            out.writeInt(access);
        }, in -> {
            int status = Xdr.readInt(in);
            NfsXdr.readPostOpAttr(in);
            NfsStatus.check(status, what);
            return Xdr.readInt(in);
        });
    }

    /** READLINK: the text a symbolic link holds (RFC 1813 §3.3.5), as the server stores it; never followed. */
    public String readlink(FileHandle link, String what) {
        return blocking(5, out -> NfsXdr.writeHandle(out, link), in -> {
            int status = Xdr.readInt(in);
            NfsXdr.readPostOpAttr(in);
            NfsStatus.check(status, what);
            return Xdr.readString(in, NfsXdr.MAX_PATH);
        });
    }

    /** SYMLINK: a link {@code name} in {@code directory} holding {@code target} (RFC 1813 §3.3.10). */
    public Lookup symlink(FileHandle directory, String name, String target, String what) {
        return blocking(10, out -> {
            NfsXdr.writeDirOp(out, directory, name);
            NfsXdr.writeSattr(out, OptionalInt.empty(), Optional.empty());
            Xdr.writeString(out, target);
        }, in -> createdEntry(in, directory, name, what));
    }

    /** Reads up to {@code count} bytes; the result's buffer is the caller's to release. */
    public CompletableFuture<ReadResult> read(FileHandle handle, long offset, int count, String what) {
        return rpc.call(6, out -> {
            NfsXdr.writeHandle(out, handle);
            out.writeLong(offset);
            out.writeInt(count);
        }).thenApply(in -> decode(in, reply -> {
            int status = Xdr.readInt(reply);
            NfsXdr.readPostOpAttr(reply);
            NfsStatus.check(status, what);
            Xdr.readInt(reply); // count, repeated by the opaque's length
            boolean eof = Xdr.readBoolean(reply);
            return new ReadResult(Xdr.readOpaqueRetainedSlice(reply, count), eof);
        }));
    }

    /** Writes {@code data} from its reader index (not consumed, not released) at {@code offset}. */
    public CompletableFuture<WriteResult> write(FileHandle handle, long offset, ByteBuf data, int stable, String what) {
        return rpc.call(7, out -> {
            NfsXdr.writeHandle(out, handle);
            out.writeLong(offset);
            out.writeInt(data.readableBytes());
            out.writeInt(stable);
            out.writeInt(data.readableBytes()); // the opaque's length; the bytes follow as they are
        }, data).thenApply(in -> decode(in, reply -> {
            int status = Xdr.readInt(reply);
            NfsXdr.skipWcc(reply);
            NfsStatus.check(status, what);
            int count = Xdr.readInt(reply);
            int committed = Xdr.readInt(reply);
            return new WriteResult(count, committed, Xdr.readLong(reply));
        }));
    }

    /** COMMIT of the whole file; completes with the server's write verifier. */
    public CompletableFuture<Long> commit(FileHandle handle, String what) {
        return rpc.call(21, out -> {
            NfsXdr.writeHandle(out, handle);
            out.writeLong(0);
            out.writeInt(0);
        }).thenApply(in -> decode(in, reply -> {
            int status = Xdr.readInt(reply);
            NfsXdr.skipWcc(reply);
            NfsStatus.check(status, what);
            return Xdr.readLong(reply);
        }));
    }

    /** CREATE in UNCHECKED mode (a retransmission succeeds again; an existing file is truncated). */
    public Lookup create(FileHandle directory, String name, int mode, String what) {
        return blocking(8, out -> {
            NfsXdr.writeDirOp(out, directory, name);
            out.writeInt(0); // UNCHECKED
            NfsXdr.writeSattr(out, OptionalInt.of(mode), Optional.empty());
        }, in -> createdEntry(in, directory, name, what));
    }

    public Lookup mkdir(FileHandle directory, String name, int mode, String what) {
        return blocking(9, out -> {
            NfsXdr.writeDirOp(out, directory, name);
            NfsXdr.writeSattr(out, OptionalInt.of(mode), Optional.empty());
        }, in -> createdEntry(in, directory, name, what));
    }

    private Lookup createdEntry(ByteBuf in, FileHandle directory, String name, String what) {
        NfsStatus.check(Xdr.readInt(in), what);
        Optional<FileHandle> handle = NfsXdr.readPostOpHandle(in);
        Optional<Fattr> attributes = NfsXdr.readPostOpAttr(in);
        if (handle.isEmpty()) {
            return lookup(directory, name, what).orElseThrow(() -> NfsStatus.error(NfsStatus.NOENT, what));
        }
        return new Lookup(handle.get(), attributes.orElseGet(() -> getattr(handle.get(), what)));
    }

    /** REMOVE (files) or RMDIR (directories); returns the raw status so callers can accept NOENT. */
    public int remove(FileHandle directory, String name, boolean directoryEntry) {
        return blocking(directoryEntry ? 13 : 12, out -> NfsXdr.writeDirOp(out, directory, name), in -> Xdr.readInt(in));
    }

    public int rename(FileHandle fromDirectory, String fromName, FileHandle toDirectory, String toName) {
        return blocking(14, out -> {
            NfsXdr.writeDirOp(out, fromDirectory, fromName);
            NfsXdr.writeDirOp(out, toDirectory, toName);
        }, in -> Xdr.readInt(in));
    }

    /** Every entry of a directory but {@code .} and {@code ..}, with attributes and handles, over as many READDIRPLUS calls as it takes. */
    public List<DirEntry> readdirplus(FileHandle directory, int maxReply, String what) {
        List<DirEntry> entries = new ArrayList<>();
        long cookie = 0;
        long verifier = 0;
        for (int calls = 0; calls < 1_000_000; calls++) {
            long sentCookie = cookie;
            long sentVerifier = verifier;
            ReaddirPage page = blocking(17, out -> {
                NfsXdr.writeHandle(out, directory);
                out.writeLong(sentCookie);
                out.writeLong(sentVerifier);
                out.writeInt(maxReply / 4);
                out.writeInt(maxReply);
            }, in -> ReaddirPage.read(in, what));
            for (ReaddirPage.Item item : page.items()) {
                cookie = item.cookie();
                if (item.name().equals(".") || item.name().equals("..")) {
                    continue;
                }
                FileHandle handle = item.handle().orElseGet(() -> lookup(directory, item.name(), what)
                        .orElseThrow(() -> NfsStatus.error(NfsStatus.NOENT, what + "/" + item.name())).handle());
                Fattr attributes = item.attributes().orElseGet(() -> getattr(handle, what + "/" + item.name()));
                entries.add(new DirEntry(item.name(), handle, attributes));
            }
            verifier = page.verifier();
            if (page.eof() || page.items().isEmpty()) {
                return entries;
            }
        }
        throw NfsStatus.error(5, what + ": the directory listing does not end");
    }

    public FsInfo fsinfo(FileHandle root, String what) {
        return blocking(19, out -> NfsXdr.writeHandle(out, root), in -> {
            int status = Xdr.readInt(in);
            NfsXdr.readPostOpAttr(in);
            NfsStatus.check(status, what);
            int readMax = Xdr.readInt(in);
            int readPreferred = Xdr.readInt(in);
            Xdr.readInt(in); // rtmult
            int writeMax = Xdr.readInt(in);
            int writePreferred = Xdr.readInt(in);
            Xdr.readInt(in); // wtmult
            return new FsInfo(readMax, readPreferred, writeMax, writePreferred, Xdr.readInt(in));
        });
    }

    public FsStat fsstat(FileHandle root, String what) {
        return blocking(18, out -> NfsXdr.writeHandle(out, root), in -> {
            int status = Xdr.readInt(in);
            NfsXdr.readPostOpAttr(in);
            NfsStatus.check(status, what);
            return new FsStat(Xdr.readLong(in), Xdr.readLong(in), Xdr.readLong(in));
        });
    }

    private <T> T blocking(int procedure, java.util.function.Consumer<ByteBuf> arguments, Function<ByteBuf, T> results) {
        ByteBuf reply = await(rpc.call(procedure, arguments));
        return decode(reply, results);
    }

    private static <T> T decode(ByteBuf reply, Function<ByteBuf, T> results) {
        try {
            return results.apply(reply);
        }
        finally {
            reply.release();
        }
    }
}
