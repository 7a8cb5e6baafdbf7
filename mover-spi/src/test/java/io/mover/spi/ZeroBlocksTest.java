package io.mover.spi;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZeroBlocksTest {
    private static int crcOfZeros(int length) {
        CRC32C crc = new CRC32C();
        crc.update(new byte[length]);
        return (int) crc.getValue();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 7, 8, 15, 16, 255, 4096, 65535, 65536, 1 << 20, (1 << 20) + 5, 3_000_001})
    void theChecksumOfZerosFromTheLengthIsTheChecksumOfTheBytes(int length) {
        assertThat(ZeroBlocks.crc32c(length)).isEqualTo(crcOfZeros(length));
        // asked again (the one remembered length) and after another length: the same answer
        assertThat(ZeroBlocks.crc32c(length)).isEqualTo(crcOfZeros(length));
        ZeroBlocks.crc32c(length + 1);
        assertThat(ZeroBlocks.crc32c(length)).isEqualTo(crcOfZeros(length));
    }

    @Test
    void aBlockIsZerosOnlyWhenEveryByteIs() {
        int length = (1 << 20) + 3;
        ByteBuffer block = ByteBuffer.allocateDirect(length);
        assertThat(ZeroBlocks.isZero(block)).isTrue();
        for (int at : new int[] {0, 1, 65536, length / 2, length - 2, length - 1}) {
            block.put(at, (byte) 1);
            assertThat(ZeroBlocks.isZero(block)).as("a one at %d", at).isFalse();
            block.put(at, (byte) 0);
        }
        block.put(0, (byte) 9);
        assertThat(ZeroBlocks.isZero(block.slice(1, length - 1))).as("only the remaining bytes count").isTrue();
        assertThat(block.position()).isZero();
        assertThat(ZeroBlocks.isZero(ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 0, 2, 0}))).isFalse();
        assertThat(ZeroBlocks.isZero(ByteBuffer.allocate(0))).isTrue();
    }

    @Test
    void theSharedZerosAreReadOnlyAndOfTheLengthAskedFor() {
        ByteBuffer zeros = ZeroBlocks.zeros(3 << 20);
        assertThat(zeros.isReadOnly()).isTrue();
        assertThat(zeros.remaining()).isEqualTo(3 << 20);
        assertThat(ZeroBlocks.isZero(zeros)).isTrue();
        assertThat(ZeroBlocks.zeros(10).remaining()).isEqualTo(10);
        assertThatThrownBy(() -> ZeroBlocks.zeros(BlockHeader.MAX_BLOCK_LENGTH + 1)).isInstanceOf(MoverException.class);
        assertThatThrownBy(() -> ZeroBlocks.crc32c(-1)).isInstanceOf(MoverException.class);
    }

    @Test
    void aHeaderOfZerosIsCheckedAgainstItsLength() {
        ZeroBlocks.check(new BlockHeader(BlockHeader.ZEROS, 1000, 0, crcOfZeros(1000)));
        assertThatThrownBy(() -> ZeroBlocks.check(new BlockHeader(BlockHeader.ZEROS, 1001, 0, crcOfZeros(1000))))
                .isInstanceOf(MoverException.class).hasMessageContaining("checksum mismatch");
        assertThatThrownBy(() -> new BlockHeader(BlockHeader.ZEROS, 1000, 5, crcOfZeros(1000)))
                .isInstanceOf(MoverException.class).hasMessageContaining("payload");
        assertThatThrownBy(() -> new BlockHeader(BlockHeader.ZEROS, BlockHeader.MAX_BLOCK_LENGTH + 1, 0, 0))
                .isInstanceOf(MoverException.class).hasMessageContaining("out of range");
    }
}
