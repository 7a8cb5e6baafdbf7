package io.mover.plugins.tcp;

import java.net.Socket;
import java.security.MessageDigest;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

import static java.util.Objects.requireNonNull;

/**
 * Trusts exactly one receiver certificate, named by its SHA-256 fingerprint (of the DER encoding, as
 * {@code openssl x509 -fingerprint -sha256} computes it). Like an SSH host key: no CA, no name, no dates;
 * the pin is the trust. Netty's {@code FingerprintTrustManagerFactory} does the same but its error does
 * not say which certificate was found, which is what an operator needs to tell a rotated key from an attack.
 */
final class PinnedTrustManager extends X509ExtendedTrustManager {
    private final String pinned;

    PinnedTrustManager(String pinned) {
        this.pinned = requireNonNull(pinned, "pinned is null");
    }

    static String fingerprint(X509Certificate certificate) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
        }
        catch (CertificateEncodingException | java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot compute a certificate's fingerprint", e);
        }
    }

    private void check(X509Certificate[] chain) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("the receiver presented no certificate");
        }
        String found = fingerprint(chain[0]);
        if (!MessageDigest.isEqual(found.getBytes(java.nio.charset.StandardCharsets.US_ASCII), pinned.getBytes(java.nio.charset.StandardCharsets.US_ASCII))) {
            throw new CertificateException("the receiver's certificate is " + found + ", not the pinned " + pinned
                    + " (check --tls-fingerprint against what 'mover receive --tls' printed)");
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("a sender does not check client certificates");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        throw new CertificateException("a sender does not check client certificates");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        throw new CertificateException("a sender does not check client certificates");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
