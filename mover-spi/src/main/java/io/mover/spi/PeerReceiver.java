package io.mover.spi;

import java.net.InetSocketAddress;

/**
 * A running receiver started by {@link PeerReceivers#listen}. Thread-safe.
 *
 * @since 1.1
 */
public interface PeerReceiver extends AutoCloseable {
    /** Where it listens (the port chosen when 0 was asked for). */
    InetSocketAddress address();

    /** Stops accepting, closes every connection, aborts unfinished files and waits (bounded) for its threads. */
    @Override
    void close();
}
