package io.mover.plugins.tcp;

import java.util.List;
import java.util.Optional;

import io.mover.spi.BlockHeader;
import io.mover.spi.Entry;
import io.mover.spi.ResumableWriter;
import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;

import static java.util.Objects.requireNonNull;

/**
 * The messages of the peer protocol, one per frame (docs/peer-protocol.md). Requests carry an id chosen
 * by the sender, unique among its requests in flight on that connection; every request gets exactly one
 * reply with the same id ({@link Done}, {@link EntryReply}, {@link Listing} (the last one), or
 * {@link Failure}).
 */
sealed interface Message {
    /**
     * Receiver → sender, in plain text, the first frame of a receiver with TLS: the sender starts TLS (a
     * TLS 1.3 client handshake) and everything after, HELLO included, runs inside it.
     */
    record StartTls(int version) implements Message {}

    /** Receiver → sender, first frame on every connection (the first inside TLS when the receiver has TLS). */
    record Hello(int version, byte[] nonce, int maxFrame, int window, byte[] codecs) implements Message {}

    /**
     * Sender → receiver: joins {@code session} as stream {@code stream}, proving the token by {@code mac};
     * {@code jobKey} tags the job's temporaries at the receiver.
     */
    record Auth(int version, byte[] session, String jobKey, int stream, byte[] nonce, byte[] mac) implements Message {}

    /** Receiver → sender: the receiver's proof, and the destination's facts. */
    record Welcome(byte[] mac, long mtimePrecisionNanos, int flags) implements Message {
        static final int CASE_SENSITIVE = 1;
        static final int POSIX_MODE = 2;
        static final int MODIFICATION_TIME = 4;
        /** The receiver answers SPACE requests (older receivers do not, and close on one). */
        static final int FREE_SPACE = 8;
        /** The receiver answers LOAD requests (older receivers do not, and close on one). */
        static final int LOAD = 16;
        /** The receiver answers MACHINE requests (older receivers do not, and close on one). */
        static final int MACHINE = 32;
    }

    /**
     * A request on a path: STAT, LIST, MKDIRS, DELETE (flag: recursive), CLEAN (remove stale temporaries), SPACE (free
     * bytes), LOAD (the session's busy time; path empty), MACHINE (in the path's place the sender's nonce, in hex).
     */
    record PathRequest(int id, byte type, String path, boolean flag) implements Message {
        public PathRequest {
            requireNonNull(path, "path is null");
        }
    }

    /** SET_ATTRIBUTES (the entry's path is the target) or OPEN (of {@code file}, the entry's size is the final size). */
    record EntryRequest(int id, byte type, int file, Entry entry) implements Message {}

    /**
     * A block of {@code file} at {@code position}. Reference-counted through its payload, so Netty releases
     * it like any buffer (after encoding, or when a write fails); whoever receives one releases it.
     */
    record Block(int id, int file, long position, BlockHeader header, ByteBuf payload) implements Message, ReferenceCounted {
        @Override
        public int refCnt() {
            return payload.refCnt();
        }

        @Override
        public Block retain() {
            payload.retain();
            return this;
        }

        @Override
        public Block retain(int increment) {
            payload.retain(increment);
            return this;
        }

        @Override
        public Block touch() {
            payload.touch();
            return this;
        }

        @Override
        public Block touch(Object hint) {
            payload.touch(hint);
            return this;
        }

        @Override
        public boolean release() {
            return payload.release();
        }

        @Override
        public boolean release(int decrement) {
            return payload.release(decrement);
        }
    }

    /**
     * RESUME: opens {@code file} like OPEN, continuing the receiver's partial of {@code key} (the sender's
     * identity of the source file's version) when one was left by an earlier run; answered by {@link Kept}.
     */
    record Resume(int id, int file, Entry entry, String key) implements Message {
        public Resume {
            requireNonNull(entry, "entry is null");
            requireNonNull(key, "key is null");
        }
    }

    /** The reply to RESUME: the blocks the receiver's partial holds already (checked against their CRC32C). */
    record Kept(int id, List<ResumableWriter.Block> blocks) implements Message {
        public Kept {
            blocks = List.copyOf(blocks);
        }
    }

    /** COMMIT or ABORT of {@code file}. */
    record FileRequest(int id, byte type, int file) implements Message {}

    record Done(int id, long value) implements Message {}

    record EntryReply(int id, Optional<Entry> entry) implements Message {}

    /** Part of a LIST reply; the last part has {@code last} set. */
    record Listing(int id, List<Entry> entries, boolean last) implements Message {
        public Listing {
            entries = List.copyOf(entries);
        }
    }

    /** The request failed: {@code code} is an {@link io.mover.spi.ErrorCode} name; id 0 is the connection itself. */
    record Failure(int id, String code, String message) implements Message {}
}
