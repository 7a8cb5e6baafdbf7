package io.mover.core.codec;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.LinkSink;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The auto codec's work around the choice: its codecs are warmed before the first timed taste. */
class AutoCodecTest {
    /**
     * A codec's first call links its native calls and builds its context: timed in the first taste, it made lz4 look
     * slower than zstd:3 on zeros. Each codec compresses once, untimed, when the worker's auto codec is made.
     */
    @Test
    void everyCodecIsWarmedBeforeItsFirstTaste() {
        List<Integer> calls = new ArrayList<>();
        CodecFactory counting = new Counting(calls);
        AutoChoice choice = new AutoChoice(List.of(new AutoChoice.Candidate("none", null, 0), new AutoChoice.Candidate("fake:1", counting, 1),
                new AutoChoice.Candidate("fake:3", counting, 3)), () -> LinkSink.Load.NONE, 2);

        AutoCodec codec = new AutoCodec(choice);
        assertThat(calls).as("levels compressed before any block").containsExactly(1, 3);

        ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
        codec.compress(block, ByteBuffer.allocateDirect(1 << 20));
        // the first block is tasted by every codec, then compressed by the chosen one
        assertThat(calls).hasSize(2 + 2 + 1);
    }

    /**
     * Blocks of zeros go as a header alone and never reach a candidate; the summary's codec line still counts them,
     * or an all-zeros job read "blocks: none sent".
     */
    @Test
    void theSummaryCountsBlocksOfZeros() {
        List<Integer> calls = new ArrayList<>();
        AutoChoice choice = new AutoChoice(List.of(new AutoChoice.Candidate("none", null, 0), new AutoChoice.Candidate("fake:1", new Counting(calls), 1)),
                () -> LinkSink.Load.NONE, 2);
        BlockCodec blocks = new BlockCodec(new AutoCodec(choice), true);

        for (int i = 0; i < 3; i++) {
            blocks.encode(ByteBuffer.allocateDirect(1 << 16), ByteBuffer.allocateDirect(1 << 16));
        }
        assertThat(choice.describe()).startsWith("blocks: zeros 100%;");

        ByteBuffer data = ByteBuffer.allocateDirect(1 << 16).put(0, (byte) 1);
        blocks.encode(data, ByteBuffer.allocateDirect(1 << 16));
        assertThat(choice.describe()).contains("zeros 75%").contains(" 25%");
    }

    /** A codec that records the level of each compression and "compresses" everything to a tenth. */
    private record Counting(List<Integer> calls) implements CodecFactory {
        @Override
        public String name() {
            return "fake";
        }

        @Override
        public byte wireId() {
            return 9;
        }

        @Override
        public Codec create(int level) {
            CodecFactory factory = this;
            return new Codec() {
                @Override
                public int maxCompressedLength(int inputLength) {
                    return inputLength;
                }

                @Override
                public int compress(ByteBuffer input, ByteBuffer output) {
                    calls.add(level);
                    int written = input.remaining() / 10;
                    input.position(input.limit());
                    output.position(output.position() + written);
                    return written;
                }

                @Override
                public int decompress(ByteBuffer input, ByteBuffer output, int rawLength) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public String name() {
                    return factory.name();
                }

                @Override
                public byte wireId() {
                    return factory.wireId();
                }
            };
        }
    }
}
