package io.mover.plugins.tcp;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.Optional;
import java.util.function.Function;

import io.mover.plugins.tcp.tar.TarInterop;
import io.mover.spi.CodecFactory;
import io.mover.spi.ConfigSpec;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PeerReceiver;
import io.mover.spi.PeerReceivers;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;
import io.mover.spi.SinkFactory;

/**
 * {@code tcp://HOST:PORT/path}: a mover receiver's destination; and the receiver itself ({@link PeerReceivers}). With
 * {@code format=tar...} both ends speak plain tar instead, for nc and tar ({@link TarInterop}).
 */
public final class TcpSinkFactory implements SinkFactory, PeerReceivers {
    @Override
    public String scheme() {
        return "tcp";
    }

    @Override
    public String description() {
        return "a mover receiver over TCP (tcp://host:port/path; start one with 'mover receive')";
    }

    @Override
    public ConfigSpec configSpec() {
        return TarInterop.senderSpec(SenderSettings.SPEC);
    }

    @Override
    public Sink create(EndpointUri uri, PluginConfig config, PluginContext context) {
        InetSocketAddress address = address(uri);
        String path = uri.path().replaceAll("^/+", "").replaceAll("/+$", "");
        RelativePath base = RelativePath.of(path);
        if (TarInterop.isTar(config)) {
            return TarInterop.connect(address, base, config, context);
        }
        return new PeerSink(new PeerLink(address, SenderSettings.from(config), context.jobKey()), base);
    }

    /** The plain tar formats: one connection, one archive (docs/tar-interop.md); their settings are checked here, before connecting. */
    @Override
    public boolean singleStream(EndpointUri uri, PluginConfig config) {
        if (!TarInterop.isTar(config)) {
            return false;
        }
        address(uri);
        TarInterop.checkSender(config);
        return true;
    }

    /** A mover receiver decodes the blocks; the plain tar formats carry no blocks, so auto has no codec to prepare there. */
    @Override
    public boolean linksToPeer(EndpointUri uri, PluginConfig config) {
        return !TarInterop.isTar(config);
    }

    static InetSocketAddress address(EndpointUri uri) {
        String authority = uri.authority();
        int colon = authority.lastIndexOf(':');
        if (authority.isEmpty() || colon < 0 || authority.contains("@")) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "a tcp:// location needs a host and a port, as in tcp://host:7878/path (got '"
                    + uri + "')");
        }
        String host = authority.substring(0, colon).replace("[", "").replace("]", "");
        try {
            int port = Integer.parseInt(authority.substring(colon + 1));
            if (port < 1 || port > 65535) {
                throw new NumberFormatException();
            }
            return new InetSocketAddress(host, port);
        }
        catch (NumberFormatException e) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid port in " + uri + ": use a number between 1 and 65535");
        }
    }

    @Override
    public ConfigSpec receiverConfigSpec() {
        return TarInterop.receiverSpec(ReceiverSettings.SPEC);
    }

    @Override
    public PeerReceiver listen(InetSocketAddress address, PluginConfig config, Function<String, Sink> destination, Collection<CodecFactory> codecs,
            PluginContext context) {
        if (TarInterop.isTar(config)) {
            return TarInterop.listen(address, config, destination, context);
        }
        TarInterop.refuseTarOnlyKeys(config);
        ReceiverSettings settings = ReceiverSettings.from(config);
        Optional<PeerTls.Server> tls = settings.tls().enabled() ? Optional.of(PeerTls.server(settings.tls())) : Optional.empty();
        return new PeerServer(settings, tls, destination, codecs, context.logger()).bind(address);
    }
}
