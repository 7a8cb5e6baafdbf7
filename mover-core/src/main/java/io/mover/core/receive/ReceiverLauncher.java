package io.mover.core.receive;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

import io.mover.core.plugin.PluginRegistry;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PeerReceiver;
import io.mover.spi.PeerReceivers;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.SinkFactory;

import static java.util.Objects.requireNonNull;

/**
 * Starts the TCP peer's receiver writing into a destination: the one way {@code mover receive} and the
 * server's data port start it. Every file lands through the destination plugin's sink (the local one for a
 * directory: confinement, temporaries, atomic and durable commit), one sink per sender job.
 */
public final class ReceiverLauncher {
    private ReceiverLauncher() {}

    /**
     * What to start.
     *
     * @param address where to listen (port 0: a free one)
     * @param destination the root that receives ({@code /data/in} or a plugin URI)
     * @param fsync whether each file is flushed to stable storage before it is acknowledged
     * @param sparse whether blocks of zeros may stay holes in new files (the local sink's {@code sparse}, off by default)
     * @param settings the receiver's settings (the tcp plugin's receiver keys: token, tls, window, ...); checked here
     * @param scratch the receiver's scratch directory
     */
    public record Request(InetSocketAddress address, String destination, boolean fsync, boolean sparse, Map<String, String> settings, Path scratch) {
        public Request {
            requireNonNull(address, "address is null");
            requireNonNull(destination, "destination is null");
            settings = Map.copyOf(settings);
            requireNonNull(scratch, "scratch is null");
        }

        @Override
        public String toString() {
            return "Request[address=" + address + ", destination=" + destination + ", settings=" + settings.keySet() + "]";
        }
    }

    /**
     * {@code HOST:PORT} ({@code [::1]:7878}; an empty host is 127.0.0.1) as a socket address.
     *
     * @param what the setting it came from, for the message ({@code --listen})
     */
    public static InetSocketAddress address(String text, String what) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, what + " " + text + " needs HOST:PORT, as in 127.0.0.1:7878");
        }
        try {
            int port = Integer.parseInt(text.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            String host = text.substring(0, colon).replace("[", "").replace("]", "");
            return new InetSocketAddress(InetAddress.getByName(host.isEmpty() ? "127.0.0.1" : host), port);
        }
        catch (NumberFormatException e) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, what + " " + text + ": the port must be 0 to 65535");
        }
        catch (UnknownHostException e) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, what + " " + text + ": unknown host " + e.getMessage());
        }
    }

    /**
     * Listens and returns once bound.
     *
     * @throws MoverException {@link ErrorCode#INVALID_ARGUMENT} or {@link ErrorCode#INVALID_CONFIG} for bad settings,
     *         a taken address, or no token off loopback
     */
    public static PeerReceiver listen(PluginRegistry registry, Request request, System.Logger logger) {
        SinkFactory tcp = registry.sink("tcp");
        if (!(tcp instanceof PeerReceivers receivers)) {
            throw new MoverException(ErrorCode.UNSUPPORTED, "the installed tcp plugin cannot receive; reinstall mover");
        }
        EndpointUri destination = EndpointUri.parse(request.destination());
        SinkFactory sinks = registry.sink(destination.scheme());
        // only what differs from the local sink's defaults, so a destination plugin without these keys is not refused
        Map<String, String> sinkSettings = new HashMap<>();
        if (request.fsync()) {
            sinkSettings.put("fsync", "true");
        }
        if (request.sparse()) {
            sinkSettings.put("sparse", "true");
        }
        PluginConfig sinkConfig = sinks.configSpec().parse(sinkSettings);
        PluginConfig config = receivers.receiverConfigSpec().parse(request.settings());
        return receivers.listen(request.address(), config,
                jobKey -> sinks.create(destination, sinkConfig, new PluginContext(jobKey, request.scratch(), Clock.systemUTC(), logger)),
                registry.codecs(), new PluginContext("receiver", request.scratch(), Clock.systemUTC(), logger));
    }
}
