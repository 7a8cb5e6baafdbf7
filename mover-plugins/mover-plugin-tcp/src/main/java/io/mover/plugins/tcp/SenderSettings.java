package io.mover.plugins.tcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.mover.spi.ConfigKey;
import io.mover.spi.ConfigSpec;
import io.mover.spi.ConfigType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;
import io.mover.spi.Secret;

/**
 * A tcp:// sink's settings, parsed once.
 *
 * @param token the receiver's token (empty: none, which only a loopback receiver accepts)
 * @param streams parallel TCP connections
 * @param timeout how long any one reply (a block's acknowledgement, a commit) may take
 * @param connectTimeout how long connecting and the handshake may take
 * @param tls whether connections run inside TLS, and how the receiver is trusted
 * @param resumeMinSize files of at least this size are opened with RESUME (the receiver keeps their partial across a crash)
 */
record SenderSettings(byte[] token, int streams, Duration timeout, Duration connectTimeout, TlsSettings tls, long resumeMinSize) {
    static final ConfigKey TOKEN = ConfigKey.optional("token", ConfigType.SECRET,
            "The receiver's token (prefer token-file or $MOVER_PEER_TOKEN: a command line is visible to other users).");
    static final ConfigKey TOKEN_FILE = ConfigKey.optional("token-file", ConfigType.STRING, "A file holding the receiver's token (its first line).");
    static final ConfigKey STREAMS = ConfigKey.optional("streams", ConfigType.INT,
            "Parallel TCP connections to the receiver; 4 when not given (a plain tar stream is one connection: refused there).")
            .withValidator(v -> (Integer) v >= 1 && (Integer) v <= 64, "between 1 and 64");
    static final ConfigKey TIMEOUT = ConfigKey.optional("timeout", ConfigType.DURATION, "120s",
            "How long a reply (a block's acknowledgement, a durable commit) may take before the file is retried.");
    static final ConfigKey CONNECT_TIMEOUT = ConfigKey.optional("connect-timeout", ConfigType.DURATION, "10s",
            "How long connecting and the handshake may take.");
    static final ConfigKey RESUME_MIN_SIZE = ConfigKey.optional("resume-min-size", ConfigType.SIZE, "16MiB",
            "Files of at least this size continue where an earlier run stopped, even after the receiver was killed (0: every file).");
    static final ConfigSpec SPEC = ConfigSpec.of(TOKEN, TOKEN_FILE, STREAMS, TIMEOUT, CONNECT_TIMEOUT, RESUME_MIN_SIZE,
            TlsSettings.TLS, TlsSettings.FINGERPRINT, TlsSettings.SENDER_CA, TlsSettings.CERTIFICATE, TlsSettings.KEY);

    static SenderSettings from(PluginConfig config) {
        String token = config.secret(TOKEN.name()).map(Secret::reveal)
                .or(() -> config.string(TOKEN_FILE.name()).map(SenderSettings::readToken))
                .orElse("");
        return new SenderSettings(token.getBytes(StandardCharsets.UTF_8), config.integer(STREAMS.name()).orElse(4),
                config.duration(TIMEOUT.name()).orElse(Duration.ofSeconds(120)), config.duration(CONNECT_TIMEOUT.name()).orElse(Duration.ofSeconds(10)),
                TlsSettings.sender(config), config.size(RESUME_MIN_SIZE.name()).orElse(16L << 20));
    }

    /** The first line of a token file, so that a trailing newline (echo > file) is not part of the token. */
    static String readToken(String file) {
        try {
            return Files.readAllLines(Path.of(file), StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
        }
        catch (IOException e) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "cannot read the token file " + file + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "SenderSettings[token=" + (token.length == 0 ? "none" : "[hidden]") + ", streams=" + streams + ", tls=" + tls.enabled() + "]";
    }
}
