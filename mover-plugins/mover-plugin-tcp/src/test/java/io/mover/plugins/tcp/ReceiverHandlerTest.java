package io.mover.plugins.tcp;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.mover.plugins.local.LocalPlugin;
import io.mover.plugins.tcp.Message.Auth;
import io.mover.plugins.tcp.Message.Failure;
import io.mover.plugins.tcp.Message.Hello;
import io.mover.plugins.tcp.Message.PathRequest;
import io.mover.plugins.tcp.Message.Welcome;
import io.mover.spi.EndpointUri;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.netty.channel.embedded.EmbeddedChannel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The receiver's connection handler on Netty's EmbeddedChannel: the handshake, refusals, and a request. */
@Timeout(30)
@ExtendWith(LeakWatch.class)
class ReceiverHandlerTest {
    private static final byte[] TOKEN = "token".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    private static final byte[] SESSION = new byte[Wire.SESSION];

    @TempDir
    Path temp;

    private final List<String> log = new CopyOnWriteArrayList<>();
    private PeerServer server;
    private EmbeddedChannel channel;

    @BeforeEach
    void start() {
        PluginContext context = new PluginContext("receiver", temp, Clock.systemUTC(), new ListLogger(log));
        ReceiverSettings settings = new ReceiverSettings(TOKEN, 4, Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(1), 10);
        // the workers run on the test's thread: an EmbeddedChannel's event loop is a plain ArrayDeque, and replies
        // handed to it from worker threads while the test runs its tasks were lost now and then
        server = new PeerServer(settings, java.util.Optional.empty(), jobKey -> new LocalPlugin().sinkFactories().getFirst()
                .create(EndpointUri.parse(temp.resolve("dst").toString()), PluginConfig.EMPTY, context), List.of(), context.logger(), new CallerRuns());
        FrameDecoder frames = new FrameDecoder(Wire.MAX_HANDSHAKE_FRAME, Duration.ofSeconds(5));
        channel = new EmbeddedChannel(new ReceiverHandler(server, frames));
    }

    @AfterEach
    void stop() {
        channel.finishAndReleaseAll();
        server.close();
    }

    /** The next outbound message, running the loop's tasks (replies come back from worker threads) for at most 5 s. */
    private Message next() throws InterruptedException {
        return CallerRuns.next(channel, log);
    }

    @Test
    void aSenderWithTheTokenIsWelcomedWithTheReceiversProofAndServed() throws InterruptedException {
        Hello hello = (Hello) next();
        assertThat(hello.version()).isEqualTo(Wire.VERSION);
        byte[] nonce = Handshake.random(Wire.NONCE);

        channel.writeInbound(new Auth(Wire.VERSION, SESSION, "job-1", 0, nonce, Handshake.senderProof(TOKEN, hello.nonce(), nonce, SESSION)));
        Welcome welcome = (Welcome) next();
        assertThat(welcome.mac()).isEqualTo(Handshake.receiverProof(TOKEN, hello.nonce(), nonce, SESSION));

        channel.writeInbound(new PathRequest(1, Wire.MKDIRS, "made/here", false));
        assertThat(next()).isEqualTo(new Message.Done(1, 1));
        assertThat(temp.resolve("dst/made/here")).isDirectory();
    }

    /**
     * LOAD tells the sender how long this receiver's connections had requests in hand (read, not answered yet).
     * Here the replies wait on the loop (its tasks are not run) for at least 50 ms.
     */
    @Test
    void loadTellsHowLongRequestsWereInHand() throws InterruptedException {
        Hello hello = (Hello) next();
        byte[] nonce = Handshake.random(Wire.NONCE);
        channel.writeInbound(new Auth(Wire.VERSION, SESSION, "job-1", 0, nonce, Handshake.senderProof(TOKEN, hello.nonce(), nonce, SESSION)));
        Welcome welcome = (Welcome) next();
        assertThat(welcome.flags() & Welcome.LOAD).isEqualTo(Welcome.LOAD);
        channel.writeInbound(new PathRequest(1, Wire.LOAD, "", false));
        assertThat(next()).isEqualTo(new Message.Done(1, 0));

        for (int id = 2; id <= 5; id++) {
            // not writeInbound, which runs the loop's tasks (the replies) at once
            channel.pipeline().fireChannelRead(new PathRequest(id, Wire.STAT, "x", false));
        }
        Thread.sleep(50);
        for (int id = 2; id <= 5; id++) {
            assertThat(next()).isInstanceOf(Message.EntryReply.class);
        }
        channel.writeInbound(new PathRequest(6, Wire.LOAD, "", false));

        assertThat(next()).isInstanceOfSatisfying(Message.Done.class, done -> assertThat(done.value()).isGreaterThanOrEqualTo(50_000_000L));
    }

    @Test
    void aWrongProofIsRefusedAndTheConnectionClosed() throws InterruptedException {
        Hello hello = (Hello) next();
        byte[] nonce = Handshake.random(Wire.NONCE);
        byte[] wrong = Handshake.senderProof("other".getBytes(java.nio.charset.StandardCharsets.UTF_8), hello.nonce(), nonce, SESSION);

        channel.writeInbound(new Auth(Wire.VERSION, SESSION, "job-1", 0, nonce, wrong));

        assertThat(next()).isInstanceOfSatisfying(Failure.class, f -> assertThat(f.code()).isEqualTo("AUTHENTICATION_FAILED"));
        assertThat(channel.isActive()).isFalse();
        assertThat(log).anyMatch(line -> line.contains("token was refused"));
    }

    @Test
    void aRequestBeforeAuthenticationClosesTheConnection() throws InterruptedException {
        next();
        channel.writeInbound(new PathRequest(1, Wire.STAT, "x", false));
        channel.runPendingTasks();

        assertThat(channel.isActive()).isFalse();
        assertThat(log).anyMatch(line -> line.contains("expected AUTH"));
    }

    @Test
    void anotherProtocolVersionIsRefusedWithWhatToDo() throws InterruptedException {
        next();
        channel.writeInbound(new Auth(Wire.VERSION + 1, SESSION, "job-1", 0, new byte[Wire.NONCE], new byte[Wire.MAC]));

        assertThat(next()).isInstanceOfSatisfying(Failure.class, f -> assertThat(f.message()).contains("same mover release"));
        assertThat(channel.isActive()).isFalse();
    }
}
