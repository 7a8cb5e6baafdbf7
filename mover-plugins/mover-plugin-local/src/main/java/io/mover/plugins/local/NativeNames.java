package io.mover.plugins.local;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Names as the kernel knows them, for {@link LinuxCalls}: encoded in the JDK's charset for file names, NUL-terminated. */
final class NativeNames {
    private final Charset charset;
    /** Whether {@link #charset} is UTF-8, which {@code getBytes} encodes exactly but for lone surrogates. */
    private final boolean utf8;
    /** Whether {@code getBytes} encodes an ASCII name exactly, one byte a character, in {@link #charset}. */
    private final boolean asciiSafe;

    NativeNames(Charset charset) {
        this.charset = charset;
        this.utf8 = charset.equals(StandardCharsets.UTF_8);
        this.asciiSafe = utf8 || charset.equals(StandardCharsets.US_ASCII) || charset.equals(StandardCharsets.ISO_8859_1);
    }

    /**
     * {@code name}'s bytes, NUL-terminated, or null when they cannot be exact. Where the charset maps every character the
     * name holds one to one ({@link #plain}), {@code getBytes} is exact and takes a fraction of a new encoder's
     * CPU (an encoder a call was a measurable part of each copied file's cost); otherwise an encoder says whether
     * the name can be encoded at all.
     */
    byte[] encode(String name) {
        if (name.indexOf('\uFFFD') >= 0 || name.indexOf('\0') >= 0) {
            return null;
        }
        if (plain(name)) {
            byte[] bytes = name.getBytes(charset);
            return Arrays.copyOf(bytes, bytes.length + 1);
        }
        try {
            ByteBuffer bytes = charset.newEncoder().encode(CharBuffer.wrap(name));
            byte[] result = new byte[bytes.remaining() + 1];
            bytes.get(result, 0, result.length - 1);
            return result;
        }
        catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Whether {@code getBytes} encodes {@code name} exactly: UTF-8 encodes all but a lone surrogate, the others of {@code asciiSafe} ASCII. */
    private boolean plain(String name) {
        if (!asciiSafe) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            // a surrogate, even a paired one, goes to the encoder: it refuses a lone one, where getBytes writes '?'
            if (c >= 0x80 && (!utf8 || Character.isSurrogate(c))) {
                return false;
            }
        }
        return true;
    }
}
