package io.mover.plugins.tcp;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * The receiver's own certificate when no certificate files are given: an ECDSA P-256 key and a
 * self-signed certificate, which senders pin by its SHA-256 fingerprint (as SSH pins host keys). Kept in
 * a directory ({@code cert.pem}, {@code key.pem} readable by the owner only) so the fingerprint survives a
 * restart; without one it lives in memory for the receiver's lifetime.
 *
 * <p>Built with BouncyCastle's bcpkix: the JDK has no public API to issue a certificate, and Netty's
 * {@code SelfSignedCertificate} falls back to {@code sun.security.x509} internals (not exported since JDK 16)
 * unless BouncyCastle is present anyway; calling bcpkix directly keeps key type and validity ours.
 */
final class SelfSignedPair {
    static final String CERTIFICATE_FILE = "cert.pem";
    static final String KEY_FILE = "key.pem";
    private static final Duration VALIDITY = Duration.ofDays(3650);

    private SelfSignedPair() {}

    /** The pair kept in {@code directory}, generated and written there (atomically) the first time. */
    static PemPair loadOrCreate(Path directory) {
        Path certificate = directory.resolve(CERTIFICATE_FILE);
        Path key = directory.resolve(KEY_FILE);
        try {
            if (Files.exists(certificate) && Files.exists(key)) {
                return new PemPair(Files.readString(certificate, StandardCharsets.US_ASCII), Files.readString(key, StandardCharsets.US_ASCII));
            }
            PemPair pair = generate();
            Files.createDirectories(directory);
            // the key first, owner-only before any byte is written; each file appears whole (rename)
            write(key, pair.key(), true);
            write(certificate, pair.certificate(), false);
            return pair;
        }
        catch (IOException e) {
            throw new MoverException(ErrorCode.INVALID_CONFIG, "cannot keep the receiver's TLS pair in " + directory + ": " + e.getMessage()
                    + " (choose a writable directory, or give --tls-cert and --tls-key)");
        }
    }

    /** A fresh pair in PEM: {@code CERTIFICATE} and PKCS#8 {@code PRIVATE KEY}. */
    static PemPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();
            Instant now = Instant.now();
            X500Name name = new X500Name("CN=mover receiver");
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, new BigInteger(64, new SecureRandom()).abs(),
                    Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(VALIDITY)), name, keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName(GeneralName.dNSName, "localhost")));
            var holder = builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate()));
            // PKCS#8 ("PRIVATE KEY"), which Netty and the JDK read; writing the key object itself gives SEC1 ("EC PRIVATE KEY")
            return new PemPair(pem(holder), pem(new JcaPKCS8Generator(keys.getPrivate(), null)));
        }
        catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot generate a TLS key pair: " + e.getMessage(), e);
        }
    }

    private static String pem(Object object) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        }
        return text.toString();
    }

    private static void write(Path file, String content, boolean secret) throws IOException {
        Path temporary = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.deleteIfExists(temporary);
        if (secret && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(temporary, content, StandardCharsets.US_ASCII);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    }

    /** A certificate and its private key, in PEM. */
    record PemPair(String certificate, String key) {
        @Override
        public String toString() {
            return "PemPair[key=[hidden]]";
        }
    }

}
