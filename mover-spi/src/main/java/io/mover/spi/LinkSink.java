package io.mover.spi;

import java.util.Set;

/**
 * An optional ability of a {@link Sink} at the far end of a link (the TCP peer): its writers are
 * {@link EncodedBlockWriter}s, and it says which codecs the far end can decode, so the engine encodes
 * only with one of those (the codec negotiation of a peer's handshake).
 *
 * @since 1.1
 */
public interface LinkSink {
    /** The {@link CodecFactory#wireId()}s the far end decodes; raw blocks ({@link BlockHeader#RAW}) always work. */
    Set<Byte> decodableCodecs();

    /**
     * What the link has carried so far, for the engine's measure of it ({@code --codec auto}): cumulative
     * counters the engine samples as the job runs. The default says nothing was measured.
     */
    default Load load() {
        return Load.NONE;
    }

    /**
     * Whether the far end runs on this machine (the link's address is a loopback address or one of this host's own), so
     * that it shares this machine's cores: then the bytes a codec saves cost its encoding here and its decoding there on
     * the same CPU, while carrying them costs only a copy through the kernel, and {@code --codec auto} weighs the two
     * ends' CPU together instead of a link's rate. The default says no (a far end elsewhere, or one that cannot tell).
     *
     * @since 1.7
     */
    default boolean sameHost() {
        return false;
    }

    /**
     * Whether the far end runs on this machine's kernel, reached either by {@link #sameHost()} or through a network of
     * its own (another network namespace or container, a veth pair that may be shaped): the cores are shared as on the
     * same host, but the link has a rate of its own, which {@code --codec auto} then weighs beside the two ends' CPU.
     * May cost a round trip to the far end, asked once. The default is {@link #sameHost()}.
     *
     * @since 1.9
     */
    default boolean sameMachine() {
        return sameHost();
    }

    /**
     * @param bytesSent encoded bytes the far end acknowledged
     * @param nanosWaiting nanoseconds writers spent waiting because the far end had not acknowledged
     *        enough (a full window): when writers wait, the link (or the far end) sets the pace
     * @param rawBytesAcknowledged the raw (decoded) bytes of those blocks: what the far end wrote
     * @param farEndBusyNanos nanoseconds, averaged over the link's connections, during which the far end had
     *        requests in hand, read and not yet answered (since 1.2): when this grows about as fast as the clock,
     *        blocks wait for the far end (its disk or its CPU), not for the link; 0 from a far end that does not tell
     * @param linkBoundNanos of the writers' waiting, the nanoseconds known to have been spent on the link itself
     *        (since 1.4): the sender's socket would not take more, or the far end had nothing in hand while writers
     *        waited. Only this time says what the link carries: bytes acknowledged while the sender's own CPU or the
     *        far end set the pace are no measure of it (zeros, a thousand times smaller encoded, made a loopback
     *        look like 0.1 MB/s). A sink that cannot tell the two apart reports its waiting whole, as before
     */
    record Load(long bytesSent, long nanosWaiting, long rawBytesAcknowledged, long farEndBusyNanos, long linkBoundNanos) {
        public static final Load NONE = new Load(0, 0);

        /** A far end that tells neither its raw bytes nor its own load: all the waiting is taken for the link's. */
        public Load(long bytesSent, long nanosWaiting) {
            this(bytesSent, nanosWaiting, bytesSent, 0, nanosWaiting);
        }

        /** Before 1.4: the waiting the far end's busy time does not explain is taken for the link's. */
        public Load(long bytesSent, long nanosWaiting, long rawBytesAcknowledged, long farEndBusyNanos) {
            this(bytesSent, nanosWaiting, rawBytesAcknowledged, farEndBusyNanos, Math.max(0, nanosWaiting - farEndBusyNanos));
        }
    }
}
