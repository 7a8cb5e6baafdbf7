package io.mover.plugins.gen;

import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bytes of every generated file come from one pattern per (kind, seed): a few MiB made once, kept
 * read-only in memory, and served by copying slices of it. A file's content is the pattern read from
 * an offset derived from the seed and the file's number, wrapping around; so reading costs a memory
 * copy and no allocation, and the same URI always yields the same bytes.
 *
 * <p>The pattern's length is deliberately not a power of two (8 MiB + 4099 bytes), so that its period
 * never lines up with blocks, and longer than the windows codecs use at the levels a transfer picks:
 * a codec sees the pattern's own compressibility, not its repetition.
 */
final class GenData {
    static final int PATTERN_LENGTH = (8 << 20) + 4099;
    private static final int SEGMENT = 4096;
    /** At most this many patterns are kept; a job uses one, tests a few. */
    private static final int CACHED = 8;
    private static final Map<Key, ByteBuffer> PATTERNS = new ConcurrentHashMap<>();

    private record Key(DataKind kind, long seed) {}

    private GenData() {}

    /** The shared, read-only pattern of {@code kind} for {@code seed}; read it only with absolute gets. */
    static ByteBuffer pattern(DataKind kind, long seed) {
        if (PATTERNS.size() >= CACHED) {
            PATTERNS.clear();
        }
        return PATTERNS.computeIfAbsent(new Key(kind, seed), key -> make(key.kind(), key.seed()).asReadOnlyBuffer());
    }

    /** Where file {@code index} starts in the pattern: a mix of the seed and the index (SplitMix64's finaliser). */
    static int offset(long seed, long index) {
        long z = seed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (int) Math.floorMod(z ^ (z >>> 31), (long) PATTERN_LENGTH);
    }

    private static ByteBuffer make(DataKind kind, long seed) {
        ByteBuffer pattern = ByteBuffer.allocateDirect(PATTERN_LENGTH);
        switch (kind) {
            case ZEROS -> { }
            case RANDOM -> fillRandom(pattern, new SplittableRandom(seed));
            case TEXT -> fillText(pattern, new SplittableRandom(seed));
            case MIXED -> fillMixed(pattern, seed);
        }
        return pattern.clear();
    }

    private static void fillRandom(ByteBuffer pattern, SplittableRandom random) {
        LongBuffer longs = pattern.duplicate().asLongBuffer();
        while (longs.hasRemaining()) {
            longs.put(random.nextLong());
        }
        for (int i = longs.capacity() * Long.BYTES; i < pattern.capacity(); i++) {
            pattern.put(i, (byte) random.nextInt());
        }
    }

    private static void fillText(ByteBuffer pattern, SplittableRandom random) {
        TextWords words = new TextWords(random);
        int position = 0;
        int wordsInLine = 0;
        while (position < pattern.capacity()) {
            byte[] word = words.next();
            for (int i = 0; i < word.length && position < pattern.capacity(); i++) {
                pattern.put(position++, word[i]);
            }
            if (position < pattern.capacity()) {
                wordsInLine++;
                boolean endOfLine = wordsInLine >= 8 + random.nextInt(8);
                pattern.put(position++, (byte) (endOfLine ? '\n' : ' '));
                wordsInLine = endOfLine ? 0 : wordsInLine;
            }
        }
    }

    /** Segments of random, text and zeros, each 4 KiB, chosen 40/40/20 by a generator of its own seed. */
    private static void fillMixed(ByteBuffer pattern, long seed) {
        ByteBuffer random = make(DataKind.RANDOM, seed);
        ByteBuffer text = make(DataKind.TEXT, seed);
        SplittableRandom choice = new SplittableRandom(seed ^ 0x5DEECE66DL);
        for (int position = 0; position < pattern.capacity(); position += SEGMENT) {
            int length = Math.min(SEGMENT, pattern.capacity() - position);
            int pick = choice.nextInt(10);
            if (pick < 4) {
                pattern.put(position, random, position, length);
            }
            else if (pick < 8) {
                pattern.put(position, text, position, length);
            }
        }
    }

    /** A vocabulary of made-up words drawn with a Zipf-like distribution, plus numbers, as logs and CSV have. */
    private static final class TextWords {
        private static final String LETTERS = "eeeeettttaaaooooiiinnnssshhhrrrdddllcuumwfgypbvkjxqz";
        private final byte[][] vocabulary = new byte[2048][];
        private final double[] cumulative = new double[vocabulary.length];
        private final SplittableRandom random;

        TextWords(SplittableRandom random) {
            this.random = random;
            double total = 0;
            for (int i = 0; i < vocabulary.length; i++) {
                StringBuilder word = new StringBuilder();
                int length = 2 + random.nextInt(9);
                for (int c = 0; c < length; c++) {
                    word.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
                }
                vocabulary[i] = word.toString().getBytes(StandardCharsets.US_ASCII);
                total += 1.0 / (i + 1);
                cumulative[i] = total;
            }
            for (int i = 0; i < cumulative.length; i++) {
                cumulative[i] /= total;
            }
        }

        byte[] next() {
            if (random.nextInt(12) == 0) {
                return Integer.toString(random.nextInt(100_000)).getBytes(StandardCharsets.US_ASCII);
            }
            int index = java.util.Arrays.binarySearch(cumulative, random.nextDouble());
            return vocabulary[Math.min(vocabulary.length - 1, index < 0 ? -index - 1 : index)];
        }
    }
}
