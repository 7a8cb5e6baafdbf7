package io.mover.plugins.nfs;

import io.mover.spi.EndpointUri;
import io.mover.spi.PluginConfig;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A private nfs-ganesha on 127.0.0.1 exporting a temporary folder as {@code /export}, started by
 * {@code ganesha.sh} beside this class in the test resources (which bounds the start-up wait). One per test JVM, through {@link GaneshaExtension}.
 */
public final class Ganesha {
    private final Path script;
    private final Path state;
    private final Path export;
    private final int nfsPort;
    private final int mountPort;

    private Ganesha(Path script, Path state, Path export, int nfsPort, int mountPort) {
        this.script = script;
        this.state = state;
        this.export = export;
        this.nfsPort = nfsPort;
        this.mountPort = mountPort;
    }

    /** Why ganesha cannot run here, or null when it can. */
    public static String unavailableReason() {
        if (Files.isExecutable(Path.of("/usr/bin/ganesha.nfsd")) || onPath("ganesha.nfsd")) {
            if (!"root".equals(System.getProperty("user.name"))) {
                return "nfs-ganesha's VFS backend needs root (it opens files by handle); run the tests as root";
            }
            return null;
        }
        return "nfs-ganesha is not installed: apt-get install -y nfs-ganesha nfs-ganesha-vfs rpcbind (.ci/run does)";
    }

    private static boolean onPath(String binary) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, binary))) {
                return true;
            }
        }
        return false;
    }

    /** Starts a server on two free ports, exporting a fresh temporary folder; the script comes from the class path. */
    public static Ganesha start() throws IOException, InterruptedException {
        return start(null);
    }

    /** Starts a server exporting {@code export} (a small tmpfs, say), or a fresh temporary folder when null. */
    public static Ganesha start(Path export) throws IOException, InterruptedException {
        Path base = Files.createTempDirectory("mover-ganesha-");
        Path script = base.resolve("ganesha.sh");
        try (java.io.InputStream in = Ganesha.class.getResourceAsStream("ganesha.sh")) {
            Files.copy(java.util.Objects.requireNonNull(in, "ganesha.sh is not on the class path"), script);
        }
        Ganesha ganesha = new Ganesha(script, base.resolve("state"), export == null ? base.resolve("export") : export, freePort(), freePort());
        ganesha.run("start");
        return ganesha;
    }

    /** Stops and starts the server again on the same ports and folder (a restart mid-transfer). */
    public void restart() throws IOException, InterruptedException {
        stop();
        run("start");
    }

    public void stop() throws IOException, InterruptedException {
        run("stop");
    }

    /** Removes the state and export folders (after {@link #stop}); an export given to {@link #start(Path)} is the caller's. */
    public void deleteFiles() throws IOException {
        Path base = state.getParent();
        try (java.util.stream.Stream<Path> walk = Files.walk(base)) {
            for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private void run(String command) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("bash", script.toString(), command, state.toString()));
        if (command.equals("start")) {
            arguments.addAll(List.of(export.toString(), Integer.toString(nfsPort), Integer.toString(mountPort)));
        }
        Process process = new ProcessBuilder(arguments).redirectErrorStream(true).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("ganesha.sh " + command + " did not finish within 60 s");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException("ganesha.sh " + command + " failed: " + output);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    public Path export() {
        return export;
    }

    /** A folder of the export that the caller alone uses, created on the server's disk. */
    public Path folder(String name) throws IOException {
        return Files.createDirectories(export.resolve(name));
    }

    public EndpointUri uri(String pathInExport) {
        return EndpointUri.parse("nfs://127.0.0.1:" + nfsPort + "/export" + (pathInExport.isEmpty() ? "" : "/" + pathInExport));
    }

    public int nfsPort() {
        return nfsPort;
    }

    public int mountPort() {
        return mountPort;
    }

    /** Options that reach this server without its portmapper, plus {@code extra}. */
    public PluginConfig config(String... extra) {
        Map<String, String> raw = new HashMap<>();
        raw.put("mount-port", Integer.toString(mountPort));
        raw.put("timeout", "5s");
        raw.put("reconnect-timeout", "20s");
        for (int i = 0; i + 1 < extra.length; i += 2) {
            raw.put(extra[i], extra[i + 1]);
        }
        return NfsOptions.SOURCE_SPEC.parse(raw);
    }
}
