package io.mover.spi;

import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * A running receiver started by {@link PeerReceivers#listen}. Thread-safe.
 *
 * @since 1.1
 */
public interface PeerReceiver extends AutoCloseable {
    /** Where it listens (the port chosen when 0 was asked for). */
    InetSocketAddress address();

    /**
     * The SHA-256 fingerprint ({@code sha256:HEX}) of the certificate the receiver presents when it runs
     * TLS, for senders to pin; empty without TLS.
     *
     * @since 1.2
     */
    default Optional<String> certificateFingerprint() {
        return Optional.empty();
    }

    /** Stops accepting, closes every connection, aborts unfinished files and waits (bounded) for its threads. */
    @Override
    void close();
}
