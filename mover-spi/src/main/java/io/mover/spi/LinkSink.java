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
}
