package io.mover.plugins.tcp;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Token authentication without sending the token: each side proves it knows the token by an HMAC-SHA256
 * over both sides' fresh nonces and the session id, under a label per direction so that one side's proof
 * can never be replayed as the other's. An empty token (allowed on loopback only) still runs the same
 * exchange, with an empty key.
 */
final class Handshake {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] SENDER = "mover-peer/1 sender".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RECEIVER = "mover-peer/1 receiver".getBytes(StandardCharsets.US_ASCII);

    private Handshake() {}

    static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    static byte[] senderProof(byte[] token, byte[] receiverNonce, byte[] senderNonce, byte[] session) {
        return mac(token, SENDER, receiverNonce, senderNonce, session);
    }

    static byte[] receiverProof(byte[] token, byte[] receiverNonce, byte[] senderNonce, byte[] session) {
        return mac(token, RECEIVER, receiverNonce, senderNonce, session);
    }

    /** Constant-time comparison, so the time taken says nothing about how much of a proof was right. */
    static boolean matches(byte[] expected, byte[] actual) {
        return MessageDigest.isEqual(expected, actual);
    }

    private static byte[] mac(byte[] token, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            // an empty key is not allowed by SecretKeySpec; one zero byte is what HMAC pads an empty key to anyway
            mac.init(new SecretKeySpec(token.length == 0 ? new byte[1] : token, "HmacSHA256"));
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
