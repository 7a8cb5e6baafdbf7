package io.mover.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;

import io.mover.core.plugin.PluginRegistry;
import io.mover.core.receive.ReceiverLauncher;
import io.mover.spi.EndpointUri;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.PeerReceiver;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import static java.util.Objects.requireNonNull;

/**
 * {@code mover receive --listen HOST:PORT DEST}: the far end of {@code mover copy SRC tcp://HOST:PORT/path}.
 * The tcp plugin runs the protocol; every file lands through the local plugin's sink for DEST (so its
 * confinement, temporaries and atomic, durable commit apply), one sink per sender job. Runs until Ctrl-C.
 */
@Command(name = "receive", sortOptions = false, usageHelpAutoWidth = true, mixinStandardHelpOptions = true,
        description = "Receives files from 'mover copy SRC tcp://HOST:PORT/path' (or, with --format tar..., archives from tar and nc) into DEST, until Ctrl-C. See docs/peer-protocol.md and docs/tar-interop.md.")
final class ReceiveCommand implements Callable<Integer> {
    static final int DEFAULT_PORT = 7878;
    static final String TOKEN_VARIABLE = "MOVER_PEER_TOKEN";

    private final CliContext context;
    /** Counted down once listening (tests wait on it), and where a test's stop request is seen. */
    final CountDownLatch listening = new CountDownLatch(1);
    volatile PeerReceiver receiver;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DEST", description = "The directory that receives what senders send (created if missing).")
    String destination;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:" + DEFAULT_PORT,
            description = "Where to listen. Off loopback a token is required. Default: ${DEFAULT-VALUE}.")
    String listen;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "A file whose first line is the token senders must prove they know (or set $" + TOKEN_VARIABLE + ").")
    Optional<Path> tokenFile = Optional.empty();

    @Option(names = "--no-fsync", negatable = false,
            description = "Acknowledge files after the rename without flushing them to stable storage (faster; a power loss may lose acknowledged files).")
    boolean noFsync;

    @Option(names = "--sparse", negatable = false,
            description = "Leave received blocks of zeros unwritten in new files (holes: the same bytes, no disk space reserved for them).")
    boolean sparse;

    @Option(names = "--frame-timeout", paramLabel = "DURATION", defaultValue = "30s", converter = Converters.Interval.class,
            description = "Close a connection that starts a frame and does not finish it within this time. Default: ${DEFAULT-VALUE}.")
    Duration frameTimeout;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "mover",
            description = "What senders send: the mover protocol, or plain tar archives from tar and nc, one per connection: tar, tar+zstd, tar+lz4, tar+gzip (see docs/tar-interop.md). Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = "--insecure-plain", description = "With a tar format: listen off loopback although plain tar has no authentication (anyone who reaches the port can write into DEST).")
    boolean insecurePlain;

    @Option(names = "--once", description = "With a tar format: receive one archive, then exit (0 only if it arrived whole).")
    boolean once;
    @Option(names = "--cap-mbps", paramLabel = "N", defaultValue = "0",
            description = "Cap what arrives at N megabits per second over all senders (100 = 12.5 MB/s); 0 for none. Default: ${DEFAULT-VALUE}.")
    String capMbps;

    @Option(names = "--receiver-config", paramLabel = "KEY=VALUE", description = "Another receiver setting (window, session-grace, max-connections); repeatable.")
    Map<String, String> receiverConfig = new LinkedHashMap<>();

    @Mixin
    PeerTlsFlags.Receiver tls = new PeerTlsFlags.Receiver();

    @Mixin
    CommonOptions common = new CommonOptions();

    ReceiveCommand(CliContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        CliLogging.configure(common.effectiveLogLevel().compareTo(CliLogging.Level.INFO) < 0 ? CliLogging.Level.INFO : common.effectiveLogLevel());
        InetSocketAddress address = address(listen);
        PluginRegistry registry = CliPlugins.load(common.pluginDirectories);
        EndpointUri dest = EndpointUri.parse(destination);
        Map<String, String> settings = new LinkedHashMap<>(receiverConfig);
        settings.putIfAbsent("frame-timeout", frameTimeout.toMillis() + "ms");
        settings.putIfAbsent("format", format);
        settings.putIfAbsent("insecure-plain", Boolean.toString(insecurePlain));
        settings.putIfAbsent("once", Boolean.toString(once));
        settings.putIfAbsent("cap-mbps", capMbps);
        token().ifPresent(token -> settings.put("token", token));
        settings.putAll(tls.settings());

        Path scratch = Files.createTempDirectory("mover-receive-");
        System.Logger logger = System.getLogger("io.mover.receive");
        PrintWriter out = spec.commandLine().getOut();
        receiver = ReceiverLauncher.listen(registry, new ReceiverLauncher.Request(address, destination, !noFsync, sparse, settings, scratch), logger);
        Thread hook = new Thread(receiver::close, "mover-receive-shutdown");
        if (context.shutdownHooks()) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            InetSocketAddress bound = receiver.address();
            receiver.certificateFingerprint().ifPresent(pin -> out.printf("mover: TLS 1.3, certificate %s (senders: --tls-fingerprint %s)%n", pin, pin));
            out.printf("mover: receiving into %s on %s:%d (%s); stop with Ctrl-C%n", dest, bound.getAddress().getHostAddress(), bound.getPort(),
                    format.equals("mover") ? (settings.containsKey("token") ? "token required" : "no token, loopback only")
                            : format + " archives, one per connection, no authentication" + (once ? ", once" : ""));
            out.flush();
            listening.countDown();
            // runs until the process is stopped (the hook closes the receiver), a --once receiver took its archive,
            // or, in tests, this thread is interrupted
            receiver.finished().toCompletableFuture().get();
            return ExitCode.SUCCESS.code();
        }
        catch (InterruptedException e) {
            return ExitCode.SUCCESS.code();
        }
        catch (ExecutionException e) {
            throw e.getCause() instanceof MoverException failure ? failure : new MoverException(ErrorCode.INTERNAL, String.valueOf(e.getCause()));
        }
        finally {
            receiver.close();
            if (context.shutdownHooks()) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                }
                catch (IllegalStateException e) {
                    // already shutting down: the hook is running
                }
            }
            deleteQuietly(scratch);
        }
    }

    private Optional<String> token() throws IOException {
        if (tokenFile.isPresent()) {
            String token = Files.readAllLines(tokenFile.get()).stream().findFirst().orElse("").strip();
            if (token.isEmpty()) {
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "the token file " + tokenFile.get() + " is empty; write the token on its first line");
            }
            return Optional.of(token);
        }
        return Optional.ofNullable(context.environment().get(TOKEN_VARIABLE)).filter(token -> !token.isBlank());
    }

    static InetSocketAddress address(String text) {
        return ReceiverLauncher.address(text, "--listen");
    }

    private static void deleteQuietly(Path directory) {
        try (var paths = Files.walk(directory)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException | RuntimeException e) {
            // our own scratch directory under the system temp dir; leaving it is harmless
        }
    }
}
