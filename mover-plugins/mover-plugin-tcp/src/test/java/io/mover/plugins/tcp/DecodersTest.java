package io.mover.plugins.tcp;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.mover.spi.BlockHeader;
import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.netty.buffer.Unpooled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A sender's declared raw length is checked before the receiver reserves memory for it. */
class DecodersTest {
    private final AtomicInteger decompressions = new AtomicInteger();

    /** A codec that only counts its calls: the length check must come first. */
    private final CodecFactory counting = new CodecFactory() {
        @Override
        public String name() {
            return "counting";
        }

        @Override
        public byte wireId() {
            return 42;
        }

        @Override
        public Codec create(int level) {
            return new Codec() {
                @Override
                public String name() {
                    return "counting";
                }

                @Override
                public byte wireId() {
                    return 42;
                }

                @Override
                public int maxCompressedLength(int inputLength) {
                    return inputLength;
                }

                @Override
                public int compress(ByteBuffer input, ByteBuffer output) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public int decompress(ByteBuffer input, ByteBuffer output, int rawLength) {
                    decompressions.incrementAndGet();
                    return 0;
                }
            };
        }
    };

    @Test
    void aBlockDeclaringMoreThanTheLargestBlockIsRefusedBeforeAnyAllocation() {
        Decoders decoders = new Decoders(List.of(counting));
        BlockHeader huge = new BlockHeader((byte) 42, Decoders.MAX_RAW_BLOCK + 1, 16, 0);

        assertThatThrownBy(() -> decoders.decode(huge, Unpooled.wrappedBuffer(new byte[16])))
                .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CHECKSUM_MISMATCH))
                .hasMessageContaining("declares " + (Decoders.MAX_RAW_BLOCK + 1) + " raw bytes");
        assertThat(decompressions).hasValue(0);
        // the codec went back to its pool: the next block of that codec decodes (and fails on its own terms)
        BlockHeader small = new BlockHeader((byte) 42, 8, 16, 0);
        assertThatThrownBy(() -> decoders.decode(small, Unpooled.wrappedBuffer(new byte[16]))).isInstanceOf(MoverException.class);
        assertThat(decompressions).hasValue(1);
    }
}
