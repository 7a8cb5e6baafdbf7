package io.mover.plugins.tcp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.mover.plugins.local.LocalPlugin;
import io.mover.spi.CodecFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.PeerReceiver;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.Sink;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A receiver on loopback writing into a real local sink over {@code root}, as {@code mover receive}
 * runs it, with its log lines kept for assertions.
 */
final class LoopbackPeer implements AutoCloseable {
    final List<Sink> destinations = new CopyOnWriteArrayList<>();
    final PeerReceiver receiver;
    final List<String> log = new CopyOnWriteArrayList<>();

    LoopbackPeer(Path root, Path scratch, Map<String, String> config, List<CodecFactory> codecs) {
        PluginContext context = new PluginContext("receiver", scratch, Clock.systemUTC(), new ListLogger(log));
        TcpSinkFactory factory = new TcpSinkFactory();
        receiver = factory.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), factory.receiverConfigSpec().parse(config), jobKey -> {
            Sink sink = new LocalPlugin().sinkFactories().getFirst().create(EndpointUri.parse(root.toString()), PluginConfig.EMPTY,
                    new PluginContext(jobKey, scratch, Clock.systemUTC(), context.logger()));
            destinations.add(sink);
            return sink;
        }, codecs, context);
    }

    LoopbackPeer(Path root, Path scratch) {
        this(root, scratch, Map.of("frame-timeout", "2s", "handshake-timeout", "2s", "session-grace", "1s"), List.of());
    }

    String uri(String path) {
        return "tcp://127.0.0.1:" + receiver.address().getPort() + "/" + path;
    }

    Sink sender(String path, Map<String, String> config, Path scratch) {
        return sender(path, config, scratch, "sender");
    }

    Sink sender(String path, Map<String, String> config, Path scratch, String jobKey) {
        TcpSinkFactory factory = new TcpSinkFactory();
        PluginContext context = new PluginContext(jobKey, scratch, Clock.systemUTC(), System.getLogger("sender"));
        return factory.create(EndpointUri.parse(uri(path)), factory.configSpec().parse(config), context);
    }

    boolean logged(String fragment) {
        return log.stream().anyMatch(line -> line.contains(fragment));
    }

    @Override
    public void close() {
        receiver.close();
        // the receiver's block buffers bypass Netty's leak detector (they are reused, not freed): counted instead
        if (receiver instanceof PeerServer server) {
            assertThat(server.buffers().outstanding()).as("block buffers taken and never released").isZero();
        }
    }
}
