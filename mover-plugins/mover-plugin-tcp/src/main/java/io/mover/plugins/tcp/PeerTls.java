package io.mover.plugins.tcp;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;


import javax.net.ssl.SSLException;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * Netty {@link SslContext}s for both ends: TLS 1.3 only, on the JDK's provider (no native library to
 * ship; its AES-GCM is intrinsic). Built once per receiver and per sender link.
 */
final class PeerTls {
    static final String PROTOCOL = "TLSv1.3";

    private PeerTls() {}

    /**
     * The receiver's context and its certificate's fingerprint (what senders pin).
     *
     * @param context the server context
     * @param fingerprint {@code sha256:HEX} of the receiver's certificate
     */
    record Server(SslContext context, String fingerprint) {}

    static Server server(TlsSettings settings) {
        SelfSignedPair.PemPair pair = settings.certificate().isPresent()
                ? new SelfSignedPair.PemPair(read(settings.certificate().get(), "tls-cert"), read(settings.key().get(), "tls-key"))
                : settings.directory().map(SelfSignedPair::loadOrCreate).orElseGet(SelfSignedPair::generate);
        String fingerprint = PinnedTrustManager.fingerprint(leaf(pair.certificate(), settings.certificate().map(Path::toString).orElse("the generated certificate")));
        try {
            SslContextBuilder builder = SslContextBuilder.forServer(stream(pair.certificate()), stream(pair.key()))
                    .sslProvider(SslProvider.JDK).protocols(PROTOCOL);
            if (settings.ca().isPresent()) {
                builder.trustManager(stream(read(settings.ca().get(), "tls-ca"))).clientAuth(ClientAuth.REQUIRE);
            }
            return new Server(builder.build(), fingerprint);
        }
        catch (SSLException | IllegalArgumentException e) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "cannot use the receiver's TLS certificate and key" + settings.certificate().map(p -> " (" + p + ")").orElse("")
                    + ": " + e.getMessage() + " (give a PEM certificate chain and its unencrypted PKCS#8 key)");
        }
    }

    /** The sender's context: a pinned fingerprint, a CA for the host's name, or the system's CAs. */
    static SslContext client(TlsSettings settings) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(SslProvider.JDK).protocols(PROTOCOL);
            if (settings.fingerprint().isPresent()) {
                // the pin replaces the CA and the name check: a self-signed receiver has neither
                builder.trustManager(new PinnedTrustManager(settings.fingerprint().get())).endpointIdentificationAlgorithm(null);
            }
            else {
                settings.ca().ifPresent(ca -> builder.trustManager(stream(read(ca, "tls-ca"))));
                builder.endpointIdentificationAlgorithm("HTTPS");
            }
            if (settings.certificate().isPresent()) {
                builder.keyManager(stream(read(settings.certificate().get(), "tls-cert")), stream(read(settings.key().get(), "tls-key")));
            }
            return builder.build();
        }
        catch (SSLException | IllegalArgumentException e) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "cannot set up TLS to the receiver: " + e.getMessage()
                    + " (tls-ca and tls-cert are PEM files, tls-key an unencrypted PKCS#8 key)");
        }
    }

    /** A sender without TLS options met a receiver that announced TLS (START_TLS). */
    static MoverException required(String receiver) {
        return new MoverException(ErrorCode.UNSUPPORTED, "the receiver at " + receiver + " requires TLS: add --tls-fingerprint sha256:..."
                + " (printed by 'mover receive --tls') or --tls-ca FILE");
    }

    /** A sender with TLS options met a receiver that speaks in plain text (HELLO first): it never falls back. */
    static MoverException missing(String receiver) {
        return new MoverException(ErrorCode.UNSUPPORTED, "the receiver at " + receiver
                + " runs without TLS, and this sender asks for TLS: start the receiver with --tls, or drop the TLS options here");
    }

    /** A failed handshake (or TLS record) as one line naming its innermost cause: a pin mismatch, a refused certificate. */
    static MoverException failed(Throwable cause, String receiver) {
        Throwable root = cause;
        for (int depth = 0; depth < 20 && root.getCause() != null && root.getCause() != root; depth++) {
            root = root.getCause();
        }
        String why = root instanceof java.nio.channels.ClosedChannelException ? "the receiver closed the connection" : String.valueOf(root.getMessage());
        return new MoverException(ErrorCode.AUTHENTICATION_FAILED, "TLS with the receiver at " + receiver + " failed: " + why);
    }

    /** The first certificate of a PEM chain. */
    static X509Certificate leaf(String pem, String what) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificates(stream(pem)).stream().findFirst()
                    .orElseThrow(() -> new CertificateException("no certificate in it"));
        }
        catch (CertificateException e) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "cannot read a certificate from " + what + ": " + e.getMessage() + " (give a PEM file)");
        }
    }


    private static String read(Path file, String key) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        }
        catch (IOException e) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "cannot read " + key + " " + file + ": " + e.getMessage());
        }
    }

    private static InputStream stream(String pem) {
        return new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII));
    }
}
