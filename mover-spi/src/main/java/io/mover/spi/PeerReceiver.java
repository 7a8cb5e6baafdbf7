package io.mover.spi;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
     * Completes when the receiver stopped by itself: one started to take a single transfer and stop (the
     * tcp plugin's {@code once}) completes normally after a transfer that succeeded, and exceptionally, with
     * a {@link MoverException} saying why, after one that failed. A receiver that serves until it is
     * closed never completes it (the default).
     *
     * @since 1.2
     */
    default CompletionStage<Void> finished() {
        return new CompletableFuture<>();
    }

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
