package io.mover.server.dataport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.mover.core.plugin.PluginRegistry;
import io.mover.core.receive.ReceiverLauncher;
import io.mover.spi.PeerReceiver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.util.Objects.requireNonNull;

/**
 * The running data port, or none when it is off. Started with the server (a bad setting stops the server
 * from starting, with one line saying which), closed with it (unfinished files are aborted). Thread-safe.
 */
public final class DataPort implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataPort.class);

    private final Optional<PeerReceiver> receiver;

    private DataPort(Optional<PeerReceiver> receiver) {
        this.receiver = requireNonNull(receiver, "receiver is null");
    }

    /**
     * What {@code GET /api/v1/nodes} shows of this node's data port.
     *
     * @param address where it listens
     * @param tls whether it runs TLS
     * @param fingerprint the certificate's {@code sha256:HEX}, for senders to pin (with TLS)
     */
    public record View(String address, boolean tls, String fingerprint) {}

    public static DataPort off() {
        return new DataPort(Optional.empty());
    }

    /** Starts listening as configured; {@code scratch} is the server's scratch space, {@code tlsDir} the default home of a generated pair. */
    public static DataPort start(DataPortProperties properties, PluginRegistry plugins, Path scratch, Path tlsDir) throws IOException {
        if (properties.root() == null) {
            throw new IllegalStateException("mover.data-port.enabled=true needs mover.data-port.root, the directory that receives");
        }
        InetSocketAddress address = ReceiverLauncher.address(properties.listen(), "mover.data-port.listen");
        Optional<String> token = token(properties);
        if (!address.getAddress().isLoopbackAddress() && token.isEmpty()) {
            throw new IllegalStateException("refusing to start: mover.data-port.listen=" + properties.listen()
                    + " is not a loopback address and no token is set, so anyone who can reach it could write into " + properties.root()
                    + ". Set mover.data-port.token (or MOVER_DATAPORT_TOKEN) or mover.data-port.token-file, or listen on 127.0.0.1.");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        token.ifPresent(value -> settings.put("token", value));
        DataPortProperties.Tls tls = properties.tls();
        if (tls.enabled() || tls.cert() != null || tls.ca() != null) {
            settings.put("tls", "true");
            settings.put("tls-dir", (tls.dir() == null ? tlsDir : tls.dir()).toString());
            put(settings, "tls-cert", tls.cert());
            put(settings, "tls-key", tls.key());
            put(settings, "tls-ca", tls.ca());
        }
        Files.createDirectories(properties.root());
        Files.createDirectories(scratch);
        PeerReceiver receiver = ReceiverLauncher.listen(plugins,
                new ReceiverLauncher.Request(address, properties.root().toString(), properties.fsync(), false, settings, scratch),
                System.getLogger("io.mover.server.dataport"));
        InetSocketAddress bound = receiver.address();
        LOG.info("data port: receiving into {} on {}:{} ({}{})", properties.root(), bound.getAddress().getHostAddress(), bound.getPort(),
                token.isPresent() ? "token required" : "no token, loopback only", receiver.certificateFingerprint().map(pin -> ", TLS 1.3, certificate " + pin).orElse(""));
        return new DataPort(Optional.of(receiver));
    }

    private static void put(Map<String, String> settings, String key, Path value) {
        if (value != null) {
            settings.put(key, value.toString());
        }
    }

    private static Optional<String> token(DataPortProperties properties) throws IOException {
        if (properties.tokenFile() != null) {
            String token = Files.readAllLines(properties.tokenFile(), StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
            if (token.isEmpty()) {
                throw new IllegalStateException("the token file " + properties.tokenFile() + " (mover.data-port.token-file) is empty; write the token on its first line");
            }
            return Optional.of(token);
        }
        return Optional.ofNullable(properties.token()).filter(value -> !value.isBlank());
    }

    public Optional<View> view() {
        return receiver.map(r -> new View(r.address().getAddress().getHostAddress() + ":" + r.address().getPort(), r.certificateFingerprint().isPresent(),
                r.certificateFingerprint().orElse(null)));
    }

    @Override
    public void close() {
        receiver.ifPresent(PeerReceiver::close);
    }
}
