package io.mover.plugins.tcp.tar;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.mover.spi.ConfigKey;
import io.mover.spi.ConfigSpec;
import io.mover.spi.ConfigType;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PeerReceiver;
import io.mover.spi.PluginConfig;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;

/**
 * The tcp plugin's plain tar formats (docs/tar-interop.md): what {@code TcpSinkFactory} hands over to when
 * a location or a receiver is configured with {@code format=tar...}. The keys here join the plugin's own.
 */
public final class TarInterop {
    static final ConfigKey FORMAT = ConfigKey.optional("format", ConfigType.STRING, TarFormat.MOVER,
            "What travels over the connection: the mover protocol, or one plain tar stream for nc and tar: " + TarFormat.SYNTAX + ".")
            .withValidator(TarFormat::isValid, TarFormat.SYNTAX);
    static final ConfigKey INSECURE_PLAIN = ConfigKey.optional("insecure-plain", ConfigType.BOOLEAN, "false",
            "Receive plain tar off loopback. Plain tar has no authentication: anyone who reaches the port can write into the destination.");
    static final ConfigKey ONCE = ConfigKey.optional("once", ConfigType.BOOLEAN, "false",
            "With a tar format: take one archive, then stop (successfully only if that archive was received whole).");
    static final ConfigKey IDLE_TIMEOUT = ConfigKey.optional("idle-timeout", ConfigType.DURATION, "60s",
            "With a tar format: a connection that sends nothing for this long is closed and its unfinished file removed.");
    /** Sender keys of the mover protocol reused by the tar formats: everything else of it does not apply. */
    private static final String TIMEOUT = "timeout";
    private static final String CONNECT_TIMEOUT = "connect-timeout";
    private static final String STREAMS = "streams";
    /** Blocks handed over by the engine and not yet in the archive: two 1 MiB blocks per worker at the default concurrency. */
    private static final long BUFFER_BYTES = 32L << 20;
    /** Refused connections: the pause grows by this much per attempt (0.2, 0.4, ... s), at most this many attempts. */
    private static final long REFUSED_PAUSE_MILLIS = 200;
    private static final int MAX_REFUSED = 20;

    private TarInterop() {}

    /** The tcp sink's keys with {@code format} added. */
    public static ConfigSpec senderSpec(ConfigSpec peer) {
        return join(peer, List.of(FORMAT));
    }

    /** The receiver's keys with {@code format}, {@code insecure-plain}, {@code once} and {@code idle-timeout} added. */
    public static ConfigSpec receiverSpec(ConfigSpec peer) {
        return join(peer, List.of(FORMAT, INSECURE_PLAIN, ONCE, IDLE_TIMEOUT));
    }

    /** Whether {@code config} (parsed by one of the specs above) asks for a tar format. */
    public static boolean isTar(PluginConfig config) {
        return config.string(FORMAT.name()).flatMap(TarFormat::parse).isPresent();
    }

    /** For the mover protocol: the tar-only receiver keys are mistakes worth naming. */
    public static void refuseTarOnlyKeys(PluginConfig config) {
        if (config.bool(ONCE.name()).orElse(false) || config.bool(INSECURE_PLAIN.name()).orElse(false)) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "--once and --insecure-plain apply to the plain tar formats only (--format tar, tar+zstd, tar+lz4, tar+gzip)");
        }
    }

    /**
     * Connects to {@code address} and returns a sink that writes one tar stream there, with entry names
     * below {@code base}.
     */
    public static Sink connect(InetSocketAddress address, RelativePath base, PluginConfig config, PluginContext context) {
        TarFormat format = format(config);
        checkSender(config);
        Duration timeout = config.duration(TIMEOUT).orElse(Duration.ofSeconds(120));
        Duration connectTimeout = config.duration(CONNECT_TIMEOUT).orElse(Duration.ofSeconds(10));
        String where = address.getHostString() + ":" + address.getPort();
        Socket socket;
        try {
            socket = connectWhenListening(address, connectTimeout);
        }
        catch (IOException e) {
            throw new MoverException(ErrorCode.CONNECTION_LOST, "cannot connect to " + where + " for a " + format + " stream: " + e.getMessage()
                    + "; start the receiver first (for example: nc -l " + address.getPort() + " | " + format.compression().receivingPipe() + ")");
        }
        try {
            FrameOutputStream frames = new FrameOutputStream(socket.getOutputStream(), format, compressThreads(), timeout, () -> resetQuietly(socket));
            return new TarSink(new TarStream(socket, where, frames, timeout, BUFFER_BYTES), base, format + " stream to " + where, context.logger());
        }
        catch (IOException e) {
            resetQuietly(socket);
            throw new MoverException(ErrorCode.CONNECTION_LOST, "lost the connection to " + where + " as the " + format + " stream began: " + e.getMessage());
        }
    }

    /**
     * A connected socket. A refused connection is tried again until {@code connectTimeout} has passed: the
     * receiver is a pipeline an operator (or a script) starts by hand, often a moment after the sender, and a
     * server job's stream cannot be retried by a later attempt once it began. Any other failure ends at once.
     */
    static Socket connectWhenListening(InetSocketAddress address, Duration connectTimeout) throws IOException {
        long deadline = System.nanoTime() + connectTimeout.toNanos();
        for (int attempt = 1; ; attempt++) {
            Socket socket = new Socket();
            long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            try {
                socket.connect(address, (int) Math.min(Integer.MAX_VALUE, left));
                return socket;
            }
            catch (ConnectException refused) {
                socket.close();
                long pause = Math.min(REFUSED_PAUSE_MILLIS * attempt, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                if (pause <= 0 || attempt >= MAX_REFUSED) {
                    throw refused;
                }
                sleep(pause);
            }
            catch (IOException | RuntimeException e) {
                socket.close();
                throw e;
            }
        }
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the receiver to listen");
        }
    }

    /** A sender's settings that make no sense on one plain tar stream: refused before connecting. */
    public static void checkSender(PluginConfig config) {
        TarFormat format = format(config);
        if (config.secret("token").isPresent() || config.string("token-file").isPresent()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "format " + format + " is a plain tar stream, which has no authentication: drop the token");
        }
        if (config.integer(STREAMS).filter(n -> n != 1).isPresent()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "streams=" + config.integer(STREAMS).get() + " does not apply to format " + format
                    + ": a tar stream is one connection; drop it");
        }
        if (config.bool("tls").orElse(false)) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "format " + format + " is a plain tar stream for nc, which speaks no TLS: drop tls"
                    + " (tunnel it with ssh -L, or use the mover protocol)");
        }
    }

    /** Starts a receiver of plain tar streams at {@code address}, writing through the sink {@code destination} opens. */
    public static PeerReceiver listen(InetSocketAddress address, PluginConfig config, Function<String, Sink> destination, PluginContext context) {
        TarFormat format = format(config);
        if (config.secret("token").isPresent()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "format " + format + " is a plain tar stream, which has no authentication: a token cannot be checked; drop it");
        }
        boolean insecure = config.bool(INSECURE_PLAIN.name()).orElse(false);
        if (!address.getAddress().isLoopbackAddress() && !insecure) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "receiving plain tar on " + address.getAddress().getHostAddress()
                    + " (not loopback) lets anyone who reaches the port write into the destination: listen on 127.0.0.1 and tunnel (ssh -L),"
                    + " use the mover protocol with a token, or accept the risk with --insecure-plain");
        }
        TarReceiver.Settings settings = new TarReceiver.Settings(format, config.bool(ONCE.name()).orElse(false),
                config.duration(IDLE_TIMEOUT.name()).orElse(Duration.ofSeconds(60)), config.integer("max-connections").orElse(256));
        return TarReceiver.start(address, settings, destination, context.logger());
    }

    private static TarFormat format(PluginConfig config) {
        return config.string(FORMAT.name()).flatMap(TarFormat::parse)
                .orElseThrow(() -> new IllegalStateException("not a tar format: " + config.string(FORMAT.name())));
    }

    /** Compression runs on up to 8 cores (chunks are independent frames); the rest read and send. */
    private static int compressThreads() {
        return Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors()));
    }

    static void resetQuietly(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        }
        catch (IOException e) {
            // closing anyway
        }
        try {
            socket.close();
        }
        catch (IOException e) {
            // nothing more to learn from it
        }
    }

    private static ConfigSpec join(ConfigSpec peer, List<ConfigKey> extra) {
        List<ConfigKey> keys = new ArrayList<>(peer.keys());
        keys.addAll(extra);
        return new ConfigSpec(keys);
    }
}
