package io.mover.plugins.tcp.tar;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/**
 * The real tools (Debian's tar, netcat-openbsd or a traditional netcat, zstd, lz4, gzip) as shell pipelines,
 * every wait bounded.
 */
final class Tools {
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private Tools() {}

    static void assumeInstalled(String... tools) {
        for (String tool : tools) {
            Assumptions.assumeTrue(onPath(tool), tool + " is not installed (Debian: apt-get install netcat-openbsd tar zstd lz4 gzip)");
        }
    }

    private static boolean onPath(String tool) {
        return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")).anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
    }

    /** netcat-openbsd and the traditional netcat disagree on flags; the help text says which one this is. */
    private static boolean openBsd() {
        try {
            Process help = new ProcessBuilder("nc", "-h").redirectErrorStream(true).start();
            String text = new String(help.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            help.waitFor(10, TimeUnit.SECONDS);
            return text.contains("OpenBSD");
        }
        catch (IOException e) {
            return true;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /** {@code nc} listening on loopback, writing what it receives to stdout. */
    static String listen(int port) {
        return openBsd() ? "nc -l 127.0.0.1 " + port : "nc -l -p " + port + " -s 127.0.0.1";
    }

    /** {@code nc} sending stdin and closing its side at the end of it. */
    static String send(int port) {
        return openBsd() ? "nc -N 127.0.0.1 " + port : "nc -q 0 127.0.0.1 " + port;
    }

    static String decompress(TarFormat.Compression compression) {
        return switch (compression) {
            case NONE -> "cat";
            case ZSTD -> "zstd -d -q";
            case LZ4 -> "lz4 -d -q";
            case GZIP -> "gzip -d";
        };
    }

    static String compress(TarFormat.Compression compression) {
        return switch (compression) {
            case NONE -> "cat";
            case ZSTD -> "zstd -q -c";
            case LZ4 -> "lz4 -q -c";
            case GZIP -> "gzip -c";
        };
    }

    static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    /** A running {@code bash -c} pipeline (with pipefail), its output and errors in {@code log}. */
    record Pipeline(Process process, Path log) {
        static Pipeline start(String command, Path log) throws IOException {
            Process process = new ProcessBuilder("bash", "-c", "set -o pipefail; " + command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            return new Pipeline(process, log);
        }

        /** The exit code; a pipeline still running after {@link #TIMEOUT} is killed and fails the test. */
        int await() throws IOException, InterruptedException {
            if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                kill();
                throw new AssertionError("the pipeline did not end within " + TIMEOUT + ": " + output());
            }
            return process.exitValue();
        }

        String output() throws IOException {
            return Files.readString(log);
        }

        void kill() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /** Waits until something listens on loopback {@code port} (read from /proc, without connecting: nc takes one connection). */
    static void awaitListening(int port) throws IOException, InterruptedException {
        String hexPort = String.format(":%04X ", port);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                Path file = Path.of(table);
                if (Files.exists(file) && Files.readAllLines(file).stream().anyMatch(line -> isListening(line, hexPort))) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("nothing listens on port " + port + " after 20 s");
    }

    private static boolean isListening(String line, String hexPort) {
        String[] fields = line.trim().split("\\s+");
        return fields.length > 3 && (fields[1] + " ").endsWith(hexPort) && fields[3].equals("0A");
    }

    /** Every file's SHA-256 and every link's target, by path under {@code root}. */
    static Map<String, String> digests(Path root) throws IOException {
        Map<String, String> result = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.toList()) {
                String name = root.relativize(path).toString();
                if (Files.isSymbolicLink(path)) {
                    result.put(name, "-> " + Files.readSymbolicLink(path));
                }
                else if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                    result.put(name, sha256(path));
                }
                else if (!name.isEmpty()) {
                    result.put(name + "/", "directory");
                }
            }
        }
        return result;
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) > 0) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
