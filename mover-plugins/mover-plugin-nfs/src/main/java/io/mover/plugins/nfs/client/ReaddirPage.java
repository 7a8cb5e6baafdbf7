package io.mover.plugins.nfs.client;

import io.mover.plugins.nfs.rpc.Xdr;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One READDIRPLUS reply (RFC 1813 §3.3.17): entries with cookies, optional attributes and handles. */
record ReaddirPage(List<Item> items, long verifier, boolean eof) {
    record Item(String name, long cookie, Optional<Fattr> attributes, Optional<FileHandle> handle) {
    }

    static ReaddirPage read(ByteBuf in, String what) {
        int status = Xdr.readInt(in);
        NfsXdr.readPostOpAttr(in);
        NfsStatus.check(status, what);
        long verifier = Xdr.readLong(in);
        List<Item> items = new ArrayList<>();
        while (Xdr.readBoolean(in)) {
            Xdr.readLong(in); // fileid
            String name = Xdr.readString(in, NfsXdr.MAX_NAME);
            long cookie = Xdr.readLong(in);
            Optional<Fattr> attributes = NfsXdr.readPostOpAttr(in);
            Optional<FileHandle> handle = NfsXdr.readPostOpHandle(in);
            items.add(new Item(name, cookie, attributes, handle));
        }
        return new ReaddirPage(List.copyOf(items), verifier, Xdr.readBoolean(in));
    }
}
