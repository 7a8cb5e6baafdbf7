package io.mover.plugins.tcp;

import java.time.Duration;

import io.mover.spi.ConfigKey;
import io.mover.spi.ConfigSpec;
import io.mover.spi.ConfigType;
import io.mover.spi.PluginConfig;
import io.mover.spi.Secret;

import static java.util.Objects.requireNonNull;

/**
 * A receiver's settings, parsed once from its {@link PluginConfig}.
 *
 * @param token the shared secret senders prove they know; empty means none (loopback only)
 * @param window requests each connection may have in flight (blocks included); a sender exceeding it is closed
 * @param frameTimeout how long a started frame may take to arrive whole
 * @param handshakeTimeout how long a new connection may take to authenticate
 * @param sessionGrace how long a session's unfinished files wait for the sender to reconnect before they are aborted
 * @param maxConnections connections served at once; more are closed on arrival
 * @param tls whether (and with which certificate) connections run inside TLS
 * @param capMbps the cap on the bytes arriving, in megabits per second, over all connections; 0 for none
 * @param zeroBlocks whether HELLO offers blocks of zeros ({@link io.mover.spi.BlockHeader#ZEROS}); off, a sender sends them as bytes
 */
record ReceiverSettings(byte[] token, int window, Duration frameTimeout, Duration handshakeTimeout, Duration sessionGrace, int maxConnections,
        TlsSettings tls, double capMbps, boolean zeroBlocks) {
    static final ConfigKey TOKEN = ConfigKey.optional("token", ConfigType.SECRET,
            "The shared secret senders must prove they know (never sent over the wire). Required unless listening on loopback.");
    static final ConfigKey WINDOW = ConfigKey.optional("window", ConfigType.INT, "8",
            "Requests (blocks included) each connection may have in flight.").withValidator(v -> (Integer) v >= 1 && (Integer) v <= 1024, "between 1 and 1024");
    static final ConfigKey FRAME_TIMEOUT = ConfigKey.optional("frame-timeout", ConfigType.DURATION, "30s",
            "A connection that starts a frame and does not finish it within this time is closed.");
    static final ConfigKey HANDSHAKE_TIMEOUT = ConfigKey.optional("handshake-timeout", ConfigType.DURATION, "10s",
            "A connection that does not authenticate within this time is closed.");
    static final ConfigKey SESSION_GRACE = ConfigKey.optional("session-grace", ConfigType.DURATION, "60s",
            "How long unfinished files of a sender whose connections all dropped wait for it to reconnect.");
    static final ConfigKey MAX_CONNECTIONS = ConfigKey.optional("max-connections", ConfigType.INT, "256",
            "Connections served at once.").withValidator(v -> (Integer) v >= 1, "at least 1");
    static final ConfigKey CAP_MBPS = ConfigKey.optional("cap-mbps", ConfigType.STRING, "0",
            "Cap what arrives at N megabits per second over all connections (100 = 12.5 MB/s); 0 for none.")
            .withValidator(v -> validCap((String) v), "0, or a number between 0.01 and 8000000");
    static final ConfigKey ZERO_BLOCKS = ConfigKey.optional("zero-blocks", ConfigType.BOOLEAN, "true",
            "Take blocks of zeros as a header alone (no payload, nothing to decode or check byte by byte); false answers as a receiver before them did.");
    static final ConfigSpec SPEC = ConfigSpec.of(TOKEN, WINDOW, FRAME_TIMEOUT, HANDSHAKE_TIMEOUT, SESSION_GRACE, MAX_CONNECTIONS, CAP_MBPS, ZERO_BLOCKS,
            TlsSettings.TLS, TlsSettings.CERTIFICATE, TlsSettings.KEY, TlsSettings.RECEIVER_CA, TlsSettings.DIRECTORY);

    ReceiverSettings {
        requireNonNull(token, "token is null");
        requireNonNull(frameTimeout, "frameTimeout is null");
        requireNonNull(handshakeTimeout, "handshakeTimeout is null");
        requireNonNull(sessionGrace, "sessionGrace is null");
        requireNonNull(tls, "tls is null");
    }

    /** Without TLS. */
    ReceiverSettings(byte[] token, int window, Duration frameTimeout, Duration handshakeTimeout, Duration sessionGrace, int maxConnections) {
        this(token, window, frameTimeout, handshakeTimeout, sessionGrace, maxConnections, TlsSettings.OFF, 0, true);
    }

    ReceiverSettings withZeroBlocks(boolean offered) {
        return new ReceiverSettings(token, window, frameTimeout, handshakeTimeout, sessionGrace, maxConnections, tls, capMbps, offered);
    }

    private static boolean validCap(String text) {
        try {
            double value = Double.parseDouble(text.strip());
            return value == 0 || (value >= 0.01 && value <= 8_000_000);
        }
        catch (NumberFormatException e) {
            return false;
        }
    }

    static ReceiverSettings from(PluginConfig config) {
        return new ReceiverSettings(
                config.secret(TOKEN.name()).map(Secret::reveal).map(t -> t.getBytes(java.nio.charset.StandardCharsets.UTF_8)).orElse(new byte[0]),
                config.integer(WINDOW.name()).orElse(8),
                config.duration(FRAME_TIMEOUT.name()).orElse(Duration.ofSeconds(30)),
                config.duration(HANDSHAKE_TIMEOUT.name()).orElse(Duration.ofSeconds(10)),
                config.duration(SESSION_GRACE.name()).orElse(Duration.ofSeconds(60)),
                config.integer(MAX_CONNECTIONS.name()).orElse(256),
                TlsSettings.receiver(config),
                Double.parseDouble(config.string(CAP_MBPS.name()).orElse("0").strip()),
                config.bool(ZERO_BLOCKS.name()).orElse(true));
    }

    @Override
    public String toString() {
        return "ReceiverSettings[token=" + (token.length == 0 ? "none" : "[hidden]") + ", window=" + window + ", frameTimeout=" + frameTimeout + ", tls=" + tls.enabled() + "]";
    }
}
