package io.mover.plugins.tcp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

import io.mover.plugins.tcp.Message.Hello;
import io.mover.plugins.tcp.Message.Welcome;
import io.mover.spi.ErrorCode;
import io.mover.spi.LinkSink;
import io.mover.spi.MoverException;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;

import static java.util.Objects.requireNonNull;

/**
 * A sender's session with one receiver: N authenticated streams sharing a session id, so that the
 * receiver sees one set of open files whichever stream a block takes. A stream that broke is connected
 * again when it is next picked (same session: files stay open at the receiver for its grace period).
 * Thread-safe.
 */
final class PeerLink implements AutoCloseable {
    private static final BooleanSupplier NEVER = () -> false;
    private static final System.Logger LOG = System.getLogger(PeerLink.class.getName());

    private final InetSocketAddress address;
    private final SenderSettings settings;
    private final byte[] session = Handshake.random(Wire.SESSION);
    private final String jobKey;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final PeerStream[] streams;
    private final Optional<SslContext> tls;
    private int next;
    private final LinkMeter meter = new LinkMeter();
    private final java.util.concurrent.atomic.AtomicBoolean polling = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile long lastPollNanos;
    private final LongAdder resumed = new LongAdder();
    /** {@link #sameHost()} and {@link #sameMachine()}, each found out once (a look through the interfaces, a round trip); null until then. */
    private volatile Boolean sameHost;
    private volatile Boolean sameMachine;

    PeerLink(InetSocketAddress address, SenderSettings settings, String jobKey) {
        this.jobKey = requireNonNull(jobKey, "jobKey is null");
        this.address = requireNonNull(address, "address is null");
        this.settings = requireNonNull(settings, "settings is null");
        // before any thread starts: a bad CA or key file fails here
        this.tls = settings.tls().enabled() ? Optional.of(PeerTls.client(settings.tls())) : Optional.empty();
        this.group = new MultiThreadIoEventLoopGroup(Math.min(settings.streams(), Math.max(1, Runtime.getRuntime().availableProcessors())),
                NioIoHandler.newFactory());
        this.bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) settings.connectTimeout().toMillis());
        this.streams = new PeerStream[settings.streams()];
        long start = System.nanoTime();
        try {
            connectAll();
        }
        catch (RuntimeException e) {
            close();
            throw e;
        }
        LOG.log(System.Logger.Level.DEBUG, () -> streams.length + " streams to " + address + " connected and authenticated in "
                + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    /** All streams at once: each handshake costs round trips, which need not add up. */
    private void connectAll() {
        List<CompletableFuture<Void>> connecting = new java.util.ArrayList<>();
        for (int i = 0; i < streams.length; i++) {
            int index = i;
            CompletableFuture<Void> connected = new CompletableFuture<>();
            Thread.ofVirtual().name("mover-connect-" + i).start(() -> {
                try {
                    streams[index] = connect(index);
                    connected.complete(null);
                }
                catch (RuntimeException e) {
                    connected.completeExceptionally(e);
                }
            });
            connecting.add(connected);
        }
        for (CompletableFuture<Void> connected : connecting) {
            try {
                connected.join();
            }
            catch (java.util.concurrent.CompletionException e) {
                // the first failure is the one to report; the others (same cause, most likely) are closed with the link
                for (CompletableFuture<Void> other : connecting) {
                    other.exceptionally(ignored -> null).join();
                }
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
    }

    private PeerStream connect(int index) {
        return PeerStream.connect(bootstrap, address, settings.token(), session, jobKey, index, settings.connectTimeout(), meter, tls);
    }

    /**
     * Whether the receiver is on this machine: its address is a loopback address, or one of this host's interfaces
     * (the kernel carries those over loopback too). The address the URI named; a receiver in another network namespace
     * of this machine (bench/peer.sh's shaped links) is found by {@link #sameMachine()} instead.
     */
    boolean sameHost() {
        Boolean known = sameHost;
        if (known == null) {
            known = sameHost(address);
            sameHost = known;
        }
        return known;
    }

    static boolean sameHost(InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        if (ip == null) {
            return false;
        }
        if (ip.isLoopbackAddress() || ip.isAnyLocalAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(ip) != null;
        }
        catch (SocketException e) {
            return false;
        }
    }

    /**
     * Whether the receiver runs on this machine, perhaps in another network namespace or container: the same host, or
     * a receiver whose answer to MACHINE shows the same boot ({@link MachineIdentity}). Asked once, one round trip on a
     * stream; false from a receiver that does not answer MACHINE (older ones), or when either end cannot tell.
     */
    boolean sameMachine() {
        if (sameHost()) {
            return true;
        }
        Boolean known = sameMachine;
        if (known == null) {
            known = askMachine();
            sameMachine = known;
        }
        return known;
    }

    /** The MACHINE round trip itself, whatever the address; for tests too. */
    boolean askMachine() {
        MachineIdentity own = MachineIdentity.local();
        if (!own.known() || (welcome().flags() & Welcome.MACHINE) == 0) {
            return false;
        }
        String nonce = MachineIdentity.nonce();
        try {
            List<Message> reply = call(id -> new Message.PathRequest(id, Wire.MACHINE, nonce, false));
            return reply.getLast() instanceof Message.Done done && own.sameAs(nonce, done.value());
        }
        catch (MoverException e) {
            // the blocks' own requests report a broken link; auto goes on with the model of a host elsewhere
            return false;
        }
    }

    Hello hello() {
        return streams[0].hello();
    }

    Welcome welcome() {
        return streams[0].welcome();
    }

    /** The stream with the most free slots, connected again first if it broke. */
    private PeerStream pick() {
        PeerStream best = null;
        synchronized (streams) {
            int start = next++ % streams.length;
            for (int k = 0; k < streams.length; k++) {
                int i = (start + k) % streams.length;
                if (!streams[i].usable()) {
                    streams[i].close();
                    streams[i] = connect(i);
                }
                if (best == null || streams[i].freeSlots() > best.freeSlots()) {
                    best = streams[i];
                }
            }
        }
        return best;
    }

    /**
     * Sends a request without waiting for its reply (a block); see {@link PeerStream#send}. The request
     * is built (and its buffers allocated) only once a stream has a free slot.
     */
    CompletableFuture<List<Message>> send(IntFunction<Message> request, BooleanSupplier stop) {
        return pick().send(request, settings.timeout(), stop);
    }

    /** Sends a request and waits for its reply. */
    List<Message> call(IntFunction<Message> request) {
        return await(send(request, NEVER), settings.timeout());
    }

    static List<Message> await(CompletableFuture<List<Message>> reply, Duration timeout) {
        try {
            return reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (ExecutionException e) {
            throw e.getCause() instanceof MoverException mover ? mover : new MoverException(ErrorCode.CONNECTION_LOST, String.valueOf(e.getCause()));
        }
        catch (TimeoutException e) {
            throw new MoverException(ErrorCode.TIMEOUT, "the receiver did not answer within " + timeout.toSeconds() + " s");
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while waiting for the receiver");
        }
    }

    /** The first stream's channel, for tests that play a misbehaving sender. */
    io.netty.channel.Channel channelForTests() {
        return streams[0].channel();
    }

    /** Counts encoded bytes the receiver acknowledged, and the raw bytes they carried (see {@link LinkMeter#acknowledged}). */
    void acknowledged(long bytes, long raw) {
        meter.acknowledged(bytes, raw);
    }

    /** Counts raw bytes not sent because the receiver's partial held them (RESUME). */
    void resumed(long bytes) {
        resumed.add(bytes);
    }

    long resumedBytes() {
        return resumed.sum();
    }

    /**
     * The link's counters ({@link LinkMeter}), and the receiver's busy time as it last told (asked again in the
     * background at most every 200 ms, when the receiver answers LOAD): a LOAD waits for a window slot like any
     * request, and the caller (the codec choice) must not.
     */
    LinkSink.Load load() {
        if ((welcome().flags() & Welcome.LOAD) != 0 && System.nanoTime() - lastPollNanos > 200_000_000L && polling.compareAndSet(false, true)) {
            lastPollNanos = System.nanoTime();
            Thread.ofVirtual().name("mover-load").start(() -> {
                try {
                    List<Message> reply = call(id -> new Message.PathRequest(id, Wire.LOAD, "", false));
                    if (reply.getLast() instanceof Message.Done done) {
                        meter.answered(done.value() / streams.length, System.nanoTime());
                    }
                }
                catch (MoverException e) {
                    // the blocks' own requests report a broken link; the choice goes on without the receiver's figure
                }
                finally {
                    polling.set(false);
                }
            });
        }
        return meter.load(System.nanoTime());
    }

    long resumeMinSize() {
        return settings.resumeMinSize();
    }

    Duration timeout() {
        return settings.timeout();
    }

    @Override
    public void close() {
        synchronized (streams) {
            for (PeerStream stream : streams) {
                if (stream != null) {
                    stream.close();
                }
            }
        }
        long start = System.nanoTime();
        if (resumed.sum() > 0) {
            LOG.log(System.Logger.Level.INFO, () -> resumed.sum() + " bytes the receiver at " + address + " kept from an earlier run were not sent again");
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        LOG.log(System.Logger.Level.DEBUG, () -> "link to " + address + " closed in " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }
}
