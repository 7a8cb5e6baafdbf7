package io.mover.plugins.codecs;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/** Deterministic test inputs and the codec implementations to run them through. */
final class TestData {
    private static final String[] WORDS = {"mover", "block", "codec", "the", "of", "copy", "sync", "file", "directory", "byte",
            "throughput", "checksum", "{", "}", "\n", "  ", "return", "int", "final", "=", ";", "0x7f", "2026-11-23T09:15:00Z"};

    private TestData() {}

    enum Kind { ZEROS, RANDOM, TEXT }

    static byte[] generate(Kind kind, int length, long seed) {
        byte[] bytes = new byte[length];
        SplittableRandom random = new SplittableRandom(seed);
        switch (kind) {
            case ZEROS -> { }
            case RANDOM -> random.nextBytes(bytes);
            case TEXT -> {
                int position = 0;
                while (position < length) {
                    byte[] word = (WORDS[random.nextInt(WORDS.length)] + " ").getBytes(StandardCharsets.US_ASCII);
                    int n = Math.min(word.length, length - position);
                    System.arraycopy(word, 0, bytes, position, n);
                    position += n;
                }
            }
        }
        return bytes;
    }

    /** Every factory of the plugin, on each implementation that runs here: native ones and their Java fallbacks. */
    static List<CompressionCodecFactory> allImplementations() {
        List<CompressionCodecFactory> factories = new ArrayList<>();
        for (CodecFamily family : CodecFamily.values()) {
            if (family.nativeAvailable()) {
                factories.add(new CompressionCodecFactory(family, true));
            }
            factories.add(new CompressionCodecFactory(family, false));
        }
        return factories;
    }

    /** A buffer holding {@code bytes} at a non-zero position, heap or direct, with guard bytes after its limit. */
    static ByteBuffer wrap(byte[] bytes, boolean direct) {
        ByteBuffer buffer = allocate(bytes.length, direct);
        buffer.put(bytes);
        buffer.position(GUARD);
        return buffer;
    }

    static final int GUARD = 7;
    static final byte GUARD_BYTE = (byte) 0xA5;

    /**
     * A buffer with {@code length} bytes remaining, starting at a non-zero position, whose backing memory
     * continues past the limit with guard bytes, so a test sees any write beyond the limit.
     */
    static ByteBuffer allocate(int length, boolean direct) {
        int capacity = GUARD + length + GUARD;
        ByteBuffer backing = direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        for (int i = 0; i < capacity; i++) {
            backing.put(i, GUARD_BYTE);
        }
        backing.position(GUARD).limit(GUARD + length);
        return backing;
    }

    /** Whether the guard bytes around {@code buffer}'s window (see {@link #allocate}) are intact. */
    static boolean guardsIntact(ByteBuffer buffer, int windowLength) {
        ByteBuffer backing = buffer.duplicate().clear();
        for (int i = 0; i < GUARD; i++) {
            if (backing.get(i) != GUARD_BYTE || backing.get(GUARD + windowLength + i) != GUARD_BYTE) {
                return false;
            }
        }
        return true;
    }

    static byte[] remaining(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    static byte[] copyOf(byte[] bytes, int length) {
        return Arrays.copyOf(bytes, length);
    }
}
