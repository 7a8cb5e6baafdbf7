package io.mover.plugins.tcp;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import io.mover.spi.ConfigKey;
import io.mover.spi.ConfigType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PluginConfig;

import static java.util.Objects.requireNonNull;

/**
 * TLS settings of either end, parsed once (docs/peer-protocol.md, "TLS"). Any TLS setting turns TLS on.
 *
 * @param enabled whether connections run inside TLS 1.3
 * @param certificate this end's certificate chain (PEM); the receiver's, or the sender's client certificate
 * @param key its private key (PEM, PKCS#8, unencrypted)
 * @param ca the receiver: senders must present a certificate this CA issued; the sender: trust a receiver
 *        this CA issued (and whose name matches the host)
 * @param fingerprint the sender only: the receiver's certificate pinned by its SHA-256 ({@code sha256:HEX})
 * @param directory the receiver only: where its generated self-signed pair is kept (empty: in memory)
 */
record TlsSettings(boolean enabled, Optional<Path> certificate, Optional<Path> key, Optional<Path> ca, Optional<String> fingerprint,
        Optional<Path> directory) {
    static final TlsSettings OFF = new TlsSettings(false, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    static final ConfigKey TLS = ConfigKey.optional("tls", ConfigType.BOOLEAN, "false", "Run every connection inside TLS 1.3.");
    static final ConfigKey CERTIFICATE = ConfigKey.optional("tls-cert", ConfigType.STRING,
            "A PEM certificate chain for this end (the receiver's; for a sender, a client certificate a receiver with tls-ca asks for).");
    static final ConfigKey KEY = ConfigKey.optional("tls-key", ConfigType.STRING, "The PEM private key (PKCS#8, unencrypted) of tls-cert.");
    static final ConfigKey RECEIVER_CA = ConfigKey.optional("tls-ca", ConfigType.STRING,
            "Require every sender to present a certificate issued by this PEM CA (mutual TLS).");
    static final ConfigKey SENDER_CA = ConfigKey.optional("tls-ca", ConfigType.STRING,
            "Trust a receiver whose certificate this PEM CA issued for the URI's host (default with tls: the system's CAs).");
    static final ConfigKey FINGERPRINT = ConfigKey.optional("tls-fingerprint", ConfigType.STRING,
            "Trust exactly the receiver certificate with this SHA-256 fingerprint (sha256:HEX, as 'mover receive --tls' prints it).")
            .withValidator(v -> normalize((String) v).isPresent(), "sha256: followed by 64 hex digits");
    static final ConfigKey DIRECTORY = ConfigKey.optional("tls-dir", ConfigType.STRING,
            "Without tls-cert: where the generated self-signed pair is kept, so its fingerprint survives a restart (default: in memory).");

    TlsSettings {
        requireNonNull(certificate, "certificate is null");
        requireNonNull(key, "key is null");
        requireNonNull(ca, "ca is null");
        requireNonNull(fingerprint, "fingerprint is null");
        requireNonNull(directory, "directory is null");
        if (certificate.isPresent() != key.isPresent()) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "tls-cert and tls-key go together: give both files, or neither");
        }
        if (fingerprint.isPresent() && ca.isPresent()) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "give tls-fingerprint or tls-ca, not both");
        }
    }

    static TlsSettings receiver(PluginConfig config) {
        Optional<Path> certificate = path(config, CERTIFICATE);
        Optional<Path> ca = path(config, RECEIVER_CA);
        boolean enabled = config.bool(TLS.name()).orElse(false) || certificate.isPresent() || ca.isPresent();
        return new TlsSettings(enabled, certificate, path(config, KEY), ca, Optional.empty(), path(config, DIRECTORY));
    }

    static TlsSettings sender(PluginConfig config) {
        Optional<Path> ca = path(config, SENDER_CA);
        Optional<String> fingerprint = config.string(FINGERPRINT.name()).flatMap(TlsSettings::normalize);
        boolean enabled = config.bool(TLS.name()).orElse(false) || ca.isPresent() || fingerprint.isPresent();
        return new TlsSettings(enabled, path(config, CERTIFICATE), path(config, KEY), ca, fingerprint, Optional.empty());
    }

    /** {@code sha256:HEX} in lower case, colons allowed between bytes; empty when it is not one. */
    static Optional<String> normalize(String text) {
        String value = text.strip().toLowerCase(Locale.ROOT);
        if (!value.startsWith("sha256:")) {
            return Optional.empty();
        }
        String hex = value.substring("sha256:".length()).replace(":", "");
        return hex.matches("[0-9a-f]{64}") ? Optional.of("sha256:" + hex) : Optional.empty();
    }

    private static Optional<Path> path(PluginConfig config, ConfigKey key) {
        return config.string(key.name()).filter(s -> !s.isBlank()).map(Path::of);
    }
}
