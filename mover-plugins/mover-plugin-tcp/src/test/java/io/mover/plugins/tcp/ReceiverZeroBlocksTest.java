package io.mover.plugins.tcp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.CRC32C;

import io.mover.plugins.local.LocalPlugin;
import io.mover.plugins.tcp.Message.Auth;
import io.mover.plugins.tcp.Message.Block;
import io.mover.plugins.tcp.Message.Done;
import io.mover.plugins.tcp.Message.EntryRequest;
import io.mover.plugins.tcp.Message.Failure;
import io.mover.plugins.tcp.Message.FileRequest;
import io.mover.plugins.tcp.Message.Hello;
import io.mover.spi.BlockHeader;
import io.mover.spi.EndpointUri;
import io.mover.spi.Entry;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Blocks of zeros ({@link BlockHeader#ZEROS}) at the receiver's handler on an EmbeddedChannel: offered, written, refused. */
@Timeout(30)
@ExtendWith(LeakWatch.class)
class ReceiverZeroBlocksTest {
    private static final byte[] TOKEN = "token".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    private static final byte[] SESSION = new byte[Wire.SESSION];
    private static final int BLOCK = 64 << 10;

    @TempDir
    Path temp;

    private final List<String> log = new CopyOnWriteArrayList<>();
    private PeerServer server;
    private EmbeddedChannel channel;

    /** Starts a receiver (offering blocks of zeros or not) and authenticates; returns its HELLO. */
    private Hello connect(boolean zeroBlocks) throws InterruptedException {
        PluginContext context = new PluginContext("receiver", temp, Clock.systemUTC(), new ListLogger(log));
        ReceiverSettings settings = new ReceiverSettings(TOKEN, 4, Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(1), 10)
                .withZeroBlocks(zeroBlocks);
        server = new PeerServer(settings, java.util.Optional.empty(), jobKey -> new LocalPlugin().sinkFactories().getFirst()
                .create(EndpointUri.parse(temp.resolve("dst").toString()), PluginConfig.EMPTY, context), List.of(), context.logger(), new CallerRuns());
        channel = new EmbeddedChannel(new ReceiverHandler(server, new FrameDecoder(Wire.MAX_HANDSHAKE_FRAME, Duration.ofSeconds(5))));
        Hello hello = (Hello) next();
        byte[] nonce = Handshake.random(Wire.NONCE);
        channel.writeInbound(new Auth(Wire.VERSION, SESSION, "job-1", 0, nonce, Handshake.senderProof(TOKEN, hello.nonce(), nonce, SESSION)));
        assertThat(next()).isInstanceOf(Message.Welcome.class);
        return hello;
    }

    @AfterEach
    void stop() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
        if (server != null) {
            server.close();
        }
    }

    private Message next() throws InterruptedException {
        return CallerRuns.next(channel, log);
    }

    private static int crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return (int) crc.getValue();
    }

    private static Block zeros(int id, long position, int length, int crc) {
        return new Block(id, 1, position, new BlockHeader(BlockHeader.ZEROS, length, 0, crc), Unpooled.EMPTY_BUFFER);
    }

    private void open(long size) throws InterruptedException {
        channel.writeInbound(new EntryRequest(1, Wire.OPEN, 1, Entry.file(RelativePath.of("f.bin"), size, Instant.parse("2026-01-02T03:04:05Z"))));
        assertThat(next()).isInstanceOf(Done.class);
    }

    @Test
    void blocksOfZerosAreOfferedAndWrittenAsZerosBesideBlocksOfBytes() throws InterruptedException, IOException {
        Hello hello = connect(true);
        assertThat(hello.codecs()).contains(BlockHeader.ZEROS);
        open(3L * BLOCK);

        byte[] data = new byte[BLOCK];
        data[0] = 1;
        data[BLOCK - 1] = 2;
        channel.writeInbound(zeros(2, 0, BLOCK, crc(new byte[BLOCK])));
        assertThat(next()).isEqualTo(new Done(2, BLOCK));
        channel.writeInbound(new Block(3, 1, BLOCK, new BlockHeader(BlockHeader.RAW, BLOCK, BLOCK, crc(data)), Unpooled.wrappedBuffer(data)));
        assertThat(next()).isEqualTo(new Done(3, BLOCK));
        channel.writeInbound(zeros(4, 2L * BLOCK, BLOCK - 7, crc(new byte[BLOCK - 7])));
        assertThat(next()).isEqualTo(new Done(4, BLOCK - 7));
        channel.writeInbound(zeros(5, 3L * BLOCK - 7, 7, crc(new byte[7])));
        assertThat(next()).isEqualTo(new Done(5, 7));
        channel.writeInbound(new FileRequest(6, Wire.COMMIT, 1));
        assertThat(next()).isInstanceOf(Message.EntryReply.class);

        byte[] expected = new byte[3 * BLOCK];
        System.arraycopy(data, 0, expected, BLOCK, BLOCK);
        assertThat(Files.readAllBytes(temp.resolve("dst/f.bin"))).isEqualTo(expected);
    }

    @Test
    void aBlockOfZerosWithTheChecksumOfAnotherLengthIsRefused() throws InterruptedException {
        connect(true);
        open(BLOCK);

        channel.writeInbound(zeros(2, 0, BLOCK, crc(new byte[BLOCK - 1])));

        assertThat(next()).isInstanceOfSatisfying(Failure.class, f -> {
            assertThat(f.code()).isEqualTo("CHECKSUM_MISMATCH");
            assertThat(f.message()).contains("checksum mismatch", "zeros");
        });
    }

    @Test
    void aBlockOfZerosLongerThanAnyBlockIsRefusedLikeAnyOversizeBlock() throws InterruptedException {
        connect(true);
        int oversize = Decoders.MAX_RAW_BLOCK + 1;
        open(oversize);

        channel.writeInbound(zeros(2, 0, oversize, 0));

        assertThat(next()).isInstanceOfSatisfying(Failure.class, f -> {
            assertThat(f.code()).isEqualTo("CHECKSUM_MISMATCH");
            assertThat(f.message()).contains("blocks hold at most");
        });
    }

    @Test
    void aReceiverThatDoesNotOfferBlocksOfZerosRefusesOne() throws InterruptedException {
        Hello hello = connect(false);
        assertThat(hello.codecs()).doesNotContain(BlockHeader.ZEROS);
        open(BLOCK);

        channel.writeInbound(zeros(2, 0, BLOCK, crc(new byte[BLOCK])));

        assertThat(next()).isInstanceOfSatisfying(Failure.class, f -> assertThat(f.message()).contains("did not offer"));
        assertThat(temp.resolve("dst/f.bin")).doesNotExist();
    }
}
