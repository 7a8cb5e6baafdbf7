package io.mover.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import picocli.CommandLine.Option;

/**
 * TLS options of both ends of the TCP peer, as picocli mixins; each turns into the tcp plugin's settings
 * ({@code tls}, {@code tls-cert}, ...), which is where they are checked (docs/peer-protocol.md, "TLS").
 */
final class PeerTlsFlags {
    private PeerTlsFlags() {}

    /** {@code mover receive}: its own certificate (files, or a generated pair) and, optionally, a CA for senders. */
    static final class Receiver {
        @Option(names = "--tls", description = "Run every connection inside TLS 1.3. Without --tls-cert a self-signed pair is generated (kept in --tls-dir) and its fingerprint printed for senders to pin.")
        boolean tls;

        @Option(names = "--tls-cert", paramLabel = "FILE", description = "The receiver's PEM certificate chain (implies --tls).")
        Optional<Path> certificate = Optional.empty();

        @Option(names = "--tls-key", paramLabel = "FILE", description = "The PEM private key (PKCS#8, unencrypted) of --tls-cert.")
        Optional<Path> key = Optional.empty();

        @Option(names = "--tls-ca", paramLabel = "FILE", description = "Require senders to present a certificate issued by this PEM CA (mutual TLS; implies --tls).")
        Optional<Path> ca = Optional.empty();

        @Option(names = "--tls-dir", paramLabel = "DIR", description = "Where the generated pair is kept, so its fingerprint survives a restart. Default: ~/.mover/tls.")
        Optional<Path> directory = Optional.empty();

        Map<String, String> settings() {
            Map<String, String> settings = new LinkedHashMap<>();
            if (tls || certificate.isPresent() || ca.isPresent()) {
                settings.put("tls", "true");
                settings.put("tls-dir", directory.orElse(Path.of(System.getProperty("user.home"), ".mover", "tls")).toString());
            }
            certificate.ifPresent(file -> settings.put("tls-cert", file.toString()));
            key.ifPresent(file -> settings.put("tls-key", file.toString()));
            ca.ifPresent(file -> settings.put("tls-ca", file.toString()));
            return settings;
        }
    }

    /** {@code mover copy|sync ... tcp://...}: how the receiver is trusted. */
    static final class Sender {
        @Option(names = "--tls", description = "With a tcp:// destination: connect inside TLS 1.3, trusting the system's CAs for the host's name (or --tls-ca, --tls-fingerprint).")
        boolean tls;

        @Option(names = "--tls-fingerprint", paramLabel = "sha256:HEX",
                description = "With a tcp:// destination: trust exactly the receiver certificate with this fingerprint, as 'mover receive --tls' prints it (implies --tls).")
        Optional<String> fingerprint = Optional.empty();

        @Option(names = "--tls-ca", paramLabel = "FILE", description = "With a tcp:// destination: trust a receiver certificate this PEM CA issued for the host (implies --tls).")
        Optional<Path> ca = Optional.empty();

        boolean given() {
            return tls || fingerprint.isPresent() || ca.isPresent();
        }

        Map<String, String> settings() {
            Map<String, String> settings = new LinkedHashMap<>();
            if (given()) {
                settings.put("tls", "true");
            }
            fingerprint.ifPresent(pin -> settings.put("tls-fingerprint", pin));
            ca.ifPresent(file -> settings.put("tls-ca", file.toString()));
            return settings;
        }
    }
}
