package io.mover.plugins.tcp.tar;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PeerReceiver;
import io.mover.spi.Sink;

import static java.util.Objects.requireNonNull;

/**
 * {@code mover receive --format tar...}: takes plain tar streams, one archive per connection, as
 * {@code tar c DIR | zstd | nc HOST PORT} sends them, into one destination sink. A tar stream is read
 * front to back, so each connection is a blocking read on its own virtual thread (no frames, no replies:
 * nothing for an event loop to do); {@code max-connections} bound them, {@code idle-timeout} bounds every
 * read. A connection that fails (a hostile name, a truncated or corrupt stream, a timeout) is closed with
 * a logged reason, its unfinished file removed, and the receiver goes on serving. Thread-safe.
 */
final class TarReceiver implements PeerReceiver {
    /** The job key of the destination's temporaries: one sink serves every archive, so cleaning is safe among them. */
    static final String JOB_KEY = "tar";
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    record Settings(TarFormat format, boolean once, Duration idleTimeout, int maxConnections) {
        Settings {
            requireNonNull(format, "format is null");
            requireNonNull(idleTimeout, "idleTimeout is null");
        }
    }

    private final ServerSocket server;
    private final Settings settings;
    private final Sink sink;
    private final System.Logger logger;
    private final Semaphore connections;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private final Thread acceptor;
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile boolean closed;

    private TarReceiver(ServerSocket server, Settings settings, Sink sink, System.Logger logger) {
        this.server = server;
        this.settings = settings;
        this.sink = sink;
        this.logger = logger;
        this.connections = new Semaphore(settings.maxConnections());
        this.acceptor = Thread.ofPlatform().daemon().name("mover-tar-accept").start(this::accept);
    }

    static TarReceiver start(InetSocketAddress address, Settings settings, Function<String, Sink> destination, System.Logger logger) {
        ServerSocket server = null;
        try {
            server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(address, 64);
            return new TarReceiver(server, settings, destination.apply(JOB_KEY), logger);
        }
        catch (IOException e) {
            closeQuietly(server);
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "cannot listen on " + address.getHostString() + ":" + address.getPort() + ": " + e.getMessage());
        }
        catch (RuntimeException e) {
            closeQuietly(server);
            throw e;
        }
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    @Override
    public CompletionStage<Void> finished() {
        return finished;
    }

    private void accept() {
        while (!closed) {
            Socket socket;
            try {
                socket = server.accept();
            }
            catch (IOException e) {
                if (!closed) {
                    logger.log(System.Logger.Level.ERROR, "the tar receiver stopped accepting: " + e.getMessage());
                    finished.completeExceptionally(new MoverException(ErrorCode.IO_ERROR, "the receiver stopped accepting: " + e.getMessage()));
                }
                return;
            }
            if (settings.once()) {
                // one archive: nobody else gets in while it is received
                closeQuietly(server);
            }
            if (!connections.tryAcquire()) {
                logger.log(System.Logger.Level.WARNING, "refusing the connection from " + describe(socket) + ": " + settings.maxConnections()
                        + " archives are being received already (max-connections)");
                TarInterop.resetQuietly(socket);
                continue;
            }
            open.add(socket);
            threads.add(Thread.ofVirtual().name("mover-tar-receive").start(() -> serve(socket)));
            if (settings.once()) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        String from = describe(socket);
        long start = System.nanoTime();
        CountingInput received = null;
        try {
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, settings.idleTimeout().toMillis())));
            received = new CountingInput(socket.getInputStream());
            BufferedInputStream in = new BufferedInputStream(received, 64 * 1024);
            checkFormat(in);
            TarExtraction extraction = new TarExtraction(sink, settings.format(), from, logger);
            TarExtraction.Result result = extraction.run(in);
            logger.log(System.Logger.Level.INFO, String.format(Locale.ROOT,
                    "archive from %s received: %,d files (%,d bytes), %,d directories, %,d links, %,d skipped, in %.1f s (%,d bytes of %s)%s",
                    from, result.files(), result.bytes(), result.directories(), result.links(), result.skipped(), (System.nanoTime() - start) / 1e9,
                    received.count, settings.format(), extraction.warnings() > 0 ? "; " + extraction.warnings() + " warnings" : ""));
            finished(null);
        }
        catch (MoverException e) {
            logger.log(System.Logger.Level.WARNING, "closing connection from " + from + ": " + (closed ? "the receiver is stopping" : e.getMessage()));
            finished(e);
        }
        catch (IOException | RuntimeException e) {
            String reason = closed ? "the receiver is stopping" : String.valueOf(e.getMessage());
            logger.log(System.Logger.Level.WARNING, "closing connection from " + from + ": " + reason);
            finished(new MoverException(closed ? ErrorCode.CANCELLED : ErrorCode.IO_ERROR, "the archive from " + from + " failed: " + reason));
        }
        finally {
            closeQuietly(socket);
            open.remove(socket);
            connections.release();
            threads.remove(Thread.currentThread());
            if (settings.once()) {
                Thread.ofVirtual().start(this::close);
            }
        }
    }

    /** With {@code once}, the receiver's outcome is this archive's. */
    private void finished(MoverException failure) {
        if (!settings.once()) {
            return;
        }
        if (failure == null) {
            finished.complete(null);
        }
        else {
            finished.completeExceptionally(failure);
        }
    }

    /**
     * The first bytes say which tool made the stream: a mismatch is named ("a gzip stream, not tar+zstd")
     * instead of surfacing as the decompressor's complaint about a bad magic number.
     */
    private void checkFormat(BufferedInputStream in) throws IOException {
        in.mark(16);
        byte[] head = in.readNBytes(4);
        in.reset();
        if (head.length == 0) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "the connection closed before any byte of an archive arrived");
        }
        TarFormat.Compression expected = settings.format().compression();
        if (expected.matches(head, head.length)) {
            return;
        }
        for (TarFormat.Compression other : TarFormat.Compression.values()) {
            if (other != expected && other.matches(head, head.length)) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "the stream is " + other.description() + ", not " + settings.format()
                        + ": start the receiver with --format " + other.formatName() + ", or send " + settings.format());
            }
        }
        if (expected != TarFormat.Compression.NONE) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "the stream does not start like " + expected.description() + " (as --format "
                    + settings.format() + " expects); pipe the archive through " + expected.receivingPipe().replace(" -d | tar x", "") + " before nc");
        }
    }

    /** Stops accepting, resets every connection (their unfinished files are removed) and closes the destination. */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed = true;
        closeQuietly(server);
        open.forEach(TarInterop::resetQuietly);
        long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
        try {
            acceptor.join(CLOSE_WAIT);
            for (Thread thread : threads) {
                long left = deadline - System.nanoTime();
                if (left > 0 && thread != Thread.currentThread()) {
                    thread.join(Duration.ofNanos(left));
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        finally {
            sink.close();
            if (settings.once()) {
                // stopped before its archive was received whole (after it, this changes nothing)
                finished.completeExceptionally(new MoverException(ErrorCode.CANCELLED, "the receiver was stopped"));
            }
        }
    }

    private static String describe(Socket socket) {
        InetSocketAddress remote = (InetSocketAddress) socket.getRemoteSocketAddress();
        return remote == null ? "an unknown address" : remote.getAddress().getHostAddress() + ":" + remote.getPort();
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        }
        catch (IOException e) {
            // closing: nothing to do about it
        }
    }

    /** Counts the bytes that came over the connection (compressed, as sent). */
    private static final class CountingInput extends FilterInputStream {
        volatile long count;

        CountingInput(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            int n = super.read(bytes, offset, length);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
