package io.mover.plugins.nfs;

import io.mover.plugins.nfs.client.Exports;
import io.mover.plugins.nfs.client.FileHandle;
import io.mover.plugins.nfs.client.Mount;
import io.mover.plugins.nfs.client.NfsClient;
import io.mover.plugins.nfs.rpc.AuthSys;
import io.mover.plugins.nfs.rpc.RpcClient;
import io.mover.plugins.nfs.rpc.RpcClientConfig;
import io.mover.plugins.nfs.rpc.RpcProgram;
import io.mover.plugins.nfs.rpc.Transport;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One mounted export: the event loops, an NFS client per server address (each with its own connections),
 * the export's root handle and the transfer sizes. Calls are spread over the servers in turn.
 *
 * <p>Thread-safe. {@link #close()} once, after every reader and writer is done.
 */
final class NfsSession implements AutoCloseable {
    private static final int PORTMAP_PORT = 111;
    /**
     * Netty's adaptive allocator keeps its chunks for reuse. The pooled one freed a chunk whenever READ replies
     * held by read-ahead were all consumed and allocated (and zeroed) a new one a moment later: a fifth of the
     * event loop's time on a 1 GiB read.
     */
    private static final ByteBufAllocator ALLOCATOR = new AdaptiveByteBufAllocator();

    private final EventLoopGroup group;
    private final List<NfsClient> clients;
    private final AtomicInteger next = new AtomicInteger();
    private final FileHandle exportRoot;
    private final String export;
    private final String folder;
    private final int readSize;
    private final int writeSize;
    private final String name;

    private NfsSession(EventLoopGroup group, List<NfsClient> clients, FileHandle exportRoot, String export, String folder, int readSize,
            int writeSize, String name) {
        this.group = group;
        this.clients = List.copyOf(clients);
        this.exportRoot = exportRoot;
        this.export = export;
        this.folder = folder;
        this.readSize = readSize;
        this.writeSize = writeSize;
        this.name = name;
    }

    /** Connects and mounts; every failure is one line naming the server, the export and the reason. */
    static NfsSession open(NfsLocation location, NfsOptions options) {
        int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), options.connections() * location.servers().size()));
        EventLoopGroup group = Transport.group(threads, new DefaultThreadFactory("mover-nfs", true));
        List<RpcClient> opened = new ArrayList<>();
        try {
            AuthSys auth = new AuthSys(options.uid(), options.gid(), "mover");
            RpcClientConfig setup = new RpcClientConfig(1, 4, Duration.ofSeconds(10), 1, Duration.ZERO, 1 << 20);
            RpcClientConfig data = new RpcClientConfig(options.connections(), options.rpcsInFlight(), options.timeout(), 3,
                    options.reconnectTimeout(), NfsOptions.MAX_TRANSFER + 4096);
            List<NfsClient> clients = new ArrayList<>();
            FileHandle root = null;
            String export = null;
            for (int i = 0; i < location.servers().size(); i++) {
                String host = location.servers().get(i).getHostString();
                int nfsPort = location.ports().get(i);
                int mountPort = options.mountPort();
                if (nfsPort == 0 || mountPort == 0) {
                    try (RpcClient portmapper = new RpcClient(resolve(host, PORTMAP_PORT), RpcProgram.PORTMAP, auth, setup, group, ALLOCATOR)) {
                        nfsPort = nfsPort == 0 ? orDefault(Mount.port(portmapper, RpcProgram.NFS.number(), 3), 2049) : nfsPort;
                        mountPort = mountPort == 0 ? Mount.port(portmapper, RpcProgram.MOUNT.number(), 3) : mountPort;
                    }
                    if (mountPort == 0) {
                        throw new MoverException(ErrorCode.CONNECTION_LOST, "cannot mount " + location.describe() + ": the portmapper of " + host +
                                " knows no MOUNT v3 service over TCP; give its port with the mount-port option");
                    }
                }
                try (RpcClient mountd = new RpcClient(resolve(host, mountPort), RpcProgram.MOUNT, auth, setup, group, ALLOCATOR)) {
                    String exported = Exports.longestPrefix(Exports.list(mountd), location.path()).orElseThrow(() -> new MoverException(ErrorCode.NOT_FOUND,
                            "cannot mount " + location.describe() + ": " + host + " exports no folder above " + location.path() +
                                    "; check the export name"));
                    FileHandle mounted = Mount.mount(mountd, exported);
                    if (root == null) {
                        export = exported;
                        root = mounted;
                    }
                    else {
                        sameVolume(location, location.servers().getFirst().getHostString(), export, root, host, exported, mounted);
                    }
                }
                RpcClient rpc = new RpcClient(resolve(host, nfsPort), RpcProgram.NFS, auth, data, group, ALLOCATOR);
                opened.add(rpc);
                clients.add(new NfsClient(rpc));
            }
            NfsClient.FsInfo info = clients.getFirst().fsinfo(root, "FSINFO of " + location.describe());
            int readSize = transferSize(options.readSize(), info.readPreferred(), info.readMax());
            int writeSize = transferSize(options.writeSize(), info.writePreferred(), info.writeMax());
            String folder = location.path().substring(export.equals("/") ? 0 : export.length());
            return new NfsSession(group, clients, root, export, folder, readSize, writeSize, location.describe());
        }
        catch (RuntimeException e) {
            opened.forEach(RpcClient::close);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            if (e instanceof MoverException mover && !mover.getMessage().contains(location.describe())) {
                throw new MoverException(mover.code(), "cannot mount " + location.describe() + ": " + mover.getMessage(), mover);
            }
            throw e;
        }
    }

    /**
     * Striping needs one volume behind every address: calls go to any address with handles another gave. Two
     * addresses that mount the path as different exports, or give different root handles (another volume, another
     * server's copy), are refused before anything moves. Different volumes are different trees: one job each.
     */
    static void sameVolume(NfsLocation location, String firstHost, String firstExport, FileHandle firstRoot, String host, String export,
            FileHandle root) {
        if (!firstExport.equals(export) || !firstRoot.equals(root)) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "cannot stripe " + location.describe() + ": " + host + " serves " + export
                    + " as another volume than " + firstHost + " serves " + firstExport + " (a different root handle); the addresses of one location "
                    + "must reach the same volume, so run one job per volume (jobs run in parallel)");
        }
    }

    private static InetSocketAddress resolve(String host, int port) {
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new MoverException(ErrorCode.CONNECTION_LOST, "unknown NFS server " + host + ": the name does not resolve");
        }
        return address;
    }

    private static int orDefault(int port, int fallback) {
        return port == 0 ? fallback : port;
    }

    /** The configured size, or the server's preferred one, never above its maximum or ours. */
    private static int transferSize(int configured, int preferred, int max) {
        int wanted = configured > 0 ? configured : (preferred > 0 ? preferred : 1 << 20);
        int limit = max > 0 ? Math.min(max, NfsOptions.MAX_TRANSFER) : NfsOptions.MAX_TRANSFER;
        return Math.max(4096, Math.min(wanted, limit));
    }

    /** The next client in turn: consecutive calls go to different servers when there are several. */
    NfsClient client() {
        return clients.get(Math.floorMod(next.getAndIncrement(), clients.size()));
    }

    FileHandle exportRoot() {
        return exportRoot;
    }

    /** The folder inside the export this endpoint is rooted at ("" for the export itself, else "/a/b"). */
    String folder() {
        return folder;
    }

    String export() {
        return export;
    }

    int readSize() {
        return readSize;
    }

    int writeSize() {
        return writeSize;
    }

    String name() {
        return name;
    }

    /**
     * What the RPC layer did over this session, for the job summary ({@code PluginCounters}): calls retransmitted,
     * connections made again after one ended, and connections (over all servers) that carried calls.
     */
    java.util.Map<String, Long> counters() {
        long retransmissions = 0;
        long reconnects = 0;
        long connectionsUsed = 0;
        for (NfsClient client : clients) {
            retransmissions += client.rpc().retransmissions();
            reconnects += client.rpc().reconnects();
            connectionsUsed += client.rpc().connectionsUsed();
        }
        java.util.Map<String, Long> counters = new java.util.LinkedHashMap<>();
        counters.put("nfs.retransmissions", retransmissions);
        counters.put("nfs.reconnects", reconnects);
        counters.put("nfs.connections-used", connectionsUsed);
        return counters;
    }

    @Override
    public void close() {
        clients.forEach(client -> client.rpc().close());
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }
}
