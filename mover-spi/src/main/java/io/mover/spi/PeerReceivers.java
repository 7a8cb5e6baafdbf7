package io.mover.spi;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.function.Function;

/**
 * An optional ability of a {@link SinkFactory} whose scheme names a link ({@code tcp}): it can also run
 * the far end, a receiver that writes what senders send into {@link Sink}s the caller opens (the local
 * plugin's, for {@code mover receive DEST}). The receiver never touches anything but those sinks, so every
 * received path stays under their root by the sink's own confinement.
 *
 * @since 1.1
 */
public interface PeerReceivers {
    /** The receiver's settings (token, limits), validated by the caller before {@link #listen}. */
    ConfigSpec receiverConfigSpec();

    /**
     * Starts listening at {@code address} and returns once bound.
     *
     * @param destination opens the destination for a sender's job key ({@link PluginContext#jobKey()} of
     *        the sender's job, checked against that pattern), so each job's temporaries are its own and a
     *        re-run of the job removes what a crashed run left; the receiver closes the sinks it opened
     * @param codecs the codecs this process has, offered to senders in the handshake
     * @throws MoverException {@link ErrorCode#INVALID_ARGUMENT} when the address cannot be bound or a
     *         token is missing off loopback
     */
    PeerReceiver listen(InetSocketAddress address, PluginConfig config, Function<String, Sink> destination, Collection<CodecFactory> codecs,
            PluginContext context);
}
