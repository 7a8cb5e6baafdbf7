package io.mover.plugins.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * Which running kernel this process is on, so that a sender can tell a receiver on the same machine that it reaches
 * through a network of its own (another network namespace or container, a veth pair, bench/peer.sh's shaped links):
 * both ends then share the cores, which {@code --codec auto} must know (docs/peer-protocol.md, MACHINE). The identity is
 * Linux's boot id, one per boot and the same in every namespace. It never crosses the wire: a sender sends a fresh
 * nonce, the receiver answers with a digest of the nonce and its boot id, and the sender compares it with its own.
 */
final class MachineIdentity {
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
    private static final byte[] LABEL = "mover-peer/2 machine".getBytes(StandardCharsets.US_ASCII);
    /** Bytes of the sender's nonce, sent as hex in the request's path field. */
    static final int NONCE = 16;
    private static final MachineIdentity LOCAL = new MachineIdentity(read());

    private final Optional<byte[]> id;

    MachineIdentity(Optional<byte[]> id) {
        this.id = id.map(byte[]::clone);
    }

    /** This machine's, or one that cannot tell where there is no boot id (not Linux). */
    static MachineIdentity local() {
        return LOCAL;
    }

    boolean known() {
        return id.isPresent();
    }

    /** A fresh nonce, as the request carries it. */
    static String nonce() {
        return HexFormat.of().formatHex(Handshake.random(NONCE));
    }

    /**
     * The answer to a MACHINE request: the first 8 bytes of SHA-256(label ‖ nonce ‖ boot id); 0 when this end cannot
     * tell. The nonce must be {@value #NONCE} bytes in hex: anything else is refused (a FAILURE reply; the connection
     * goes on).
     */
    long answer(String nonce) {
        if (nonce.length() != 2 * NONCE || !nonce.chars().allMatch(HexFormat::isHexDigit)) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "a MACHINE request carries a nonce of " + 2 * NONCE + " hex digits");
        }
        byte[] bytes = HexFormat.of().parseHex(nonce);
        if (id.isEmpty()) {
            return 0;
        }
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(LABEL);
            digest.update(bytes);
            return ByteBuffer.wrap(digest.digest(id.get())).getLong();
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Whether a receiver's answer to {@code nonce} says it runs on this very machine. */
    boolean sameAs(String nonce, long answer) {
        return id.isPresent() && answer != 0 && answer == answer(nonce);
    }

    private static Optional<byte[]> read() {
        try {
            String text = Files.readString(BOOT_ID, StandardCharsets.US_ASCII).strip();
            return text.isEmpty() ? Optional.empty() : Optional.of(text.getBytes(StandardCharsets.US_ASCII));
        }
        catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }
}
