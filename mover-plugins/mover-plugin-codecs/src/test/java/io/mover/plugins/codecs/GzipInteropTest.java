package io.mover.plugins.codecs;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.mover.spi.Codec;

import static org.assertj.core.api.Assertions.assertThat;

/** A gzip block is a real gzip member: the JDK reads ours, and we read the JDK's, header fields included. */
class GzipInteropTest {
    @ParameterizedTest(name = "native={0}")
    @ValueSource(booleans = {true, false})
    void jdkReadsOurBlocks(boolean useNative) throws IOException {
        Codec codec = new CompressionCodecFactory(CodecFamily.GZIP, useNative && CodecFamily.GZIP.nativeAvailable()).create(6);
        byte[] raw = TestData.generate(TestData.Kind.TEXT, 300_000, 11);
        ByteBuffer block = ByteBuffer.allocate(codec.maxCompressedLength(raw.length));
        codec.compress(ByteBuffer.wrap(raw), block);
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(TestData.remaining(block.flip())))) {
            assertThat(in.readAllBytes()).isEqualTo(raw);
        }
    }

    @ParameterizedTest(name = "native={0}")
    @ValueSource(booleans = {true, false})
    void weReadJdkMembersWithOptionalHeaderFields(boolean useNative) throws IOException {
        Codec codec = new CompressionCodecFactory(CodecFamily.GZIP, useNative && CodecFamily.GZIP.nativeAvailable()).create(6);
        byte[] raw = TestData.generate(TestData.Kind.TEXT, 50_000, 12);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(raw);
        }
        byte[] member = bytes.toByteArray();
        ByteBuffer output = ByteBuffer.allocate(raw.length);
        codec.decompress(ByteBuffer.wrap(member), output, raw.length);
        assertThat(output.array()).isEqualTo(raw);

        // the same member with FEXTRA, FNAME and FCOMMENT, as gzip(1) may write them
        ByteArrayOutputStream withFields = new ByteArrayOutputStream();
        withFields.write(member, 0, 3);
        withFields.write(member[3] | 0x04 | 0x08 | 0x10);
        withFields.write(member, 4, 6);
        withFields.write(new byte[] {3, 0, 'a', 'b', 'c'});
        withFields.writeBytes("name.txt\0a comment\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        withFields.write(member, 10, member.length - 10);
        output.clear();
        codec.decompress(ByteBuffer.wrap(withFields.toByteArray()), output, raw.length);
        assertThat(output.array()).isEqualTo(raw);
    }
}
