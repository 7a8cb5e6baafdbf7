package io.mover.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The training run of the launcher's ahead-of-time caches ({@code ./mover}, {@code -XX:AOTMode=record}), one
 * per family of commands: {@code local} (a copy and syncs between local folders), {@code peer} (those and a copy
 * over loopback TCP to a receiver in this process: Netty, the peer protocol, the codecs) and {@code client} (all
 * those and the client commands against a stub server on loopback). The JVM loads every class of its cache at
 * start, used or not: with one cache for all, a local sync loaded 6,315 classes instead of 3,670 (docs/cli.md,
 * "start-up"). The JVM records one process per cache, hence one entry point.
 * Not a user command: arguments are the family, a source and a destination directory; all output is discarded.
 */
public final class AotTraining {
    private static final String JOB = "{\"id\":\"152a86d5-5c65-4eda-aee1-f32fe310d742\",\"state\":\"SUCCEEDED\","
            + "\"created\":\"2026-11-23T09:16:28.918Z\",\"spec\":{\"kind\":\"copy\",\"source\":\"/in\",\"destination\":\"/out\","
            + "\"sourceConfigKeys\":[],\"destinationConfigKeys\":[],\"options\":{\"concurrency\":16,\"blockSize\":1048576,\"include\":[],"
            + "\"exclude\":[],\"overwrite\":\"true\",\"symlinks\":\"skip\",\"codec\":\"none\",\"dryRun\":false,\"verify\":false,\"retries\":3,"
            + "\"retryBackoffSeconds\":0.2,\"bufferPool\":268435456}},\"progress\":{\"at\":\"2026-11-23T09:16:30Z\",\"state\":\"SUCCEEDED\","
            + "\"enumerating\":false,\"filesScanned\":1,\"filesDone\":1,\"filesSkipped\":0,\"filesFailed\":0,\"filesPending\":0,"
            + "\"bytesTotal\":4,\"bytesDone\":4,\"percent\":100.0,\"bytesPerSecond\":2.0,\"elapsedSeconds\":1.8},"
            + "\"stages\":[{\"stage\":\"WRITE\",\"bytes\":4,\"operations\":1,\"busySeconds\":0.1,\"waitingSeconds\":0.0,\"shareOfBusy\":1.0,"
            + "\"bytesPerSecond\":40.0}],\"bottleneck\":{\"stage\":\"WRITE\",\"shareOfBusy\":1.0,\"explanation\":\"WRITE\"},"
            + "\"result\":{\"started\":\"2026-11-23T09:16:28.95Z\",\"elapsedSeconds\":1.8,\"filesScanned\":1,\"filesTransferred\":1,"
            + "\"filesSkipped\":0,\"filesFailed\":0,\"directoriesCreated\":0,\"bytesTransferred\":4,\"bytesScanned\":4,\"retries\":0,"
            + "\"codec\":\"none\",\"bytesPerSecond\":2.2}}";

    private AotTraining() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 3 || !List.of("local", "peer", "client").contains(args[0])) {
            throw new IllegalArgumentException("usage: AotTraining local|peer|client SOURCE DESTINATION");
        }
        run("copy", args[1], args[2]);
        trainSync();
        if (!args[0].equals("local")) {
            overLoopback(args[1], args[2] + "-received");
        }
        if (args[0].equals("client")) {
            trainClient();
        }
    }

    /** The client commands against a stub server. */
    private static void trainClient() throws IOException {
        HttpServer stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        stub.createContext("/", AotTraining::answer);
        stub.start();
        try {
            String server = "http://127.0.0.1:" + stub.getAddress().getPort();
            run("jobs", "list", "--server", server);
            run("jobs", "show", "152a86d5-5c65-4eda-aee1-f32fe310d742", "--server", server);
            run("jobs", "cancel", "152a86d5-5c65-4eda-aee1-f32fe310d742", "--server", server);
        }
        finally {
            stub.stop(0);
        }
    }

    /**
     * A full sync and two re-syncs of 2,000 small files, so the cache holds the listing, merge and compare
     * paths with profiles from enough entries: a no-change sync is mostly that walk (issue 4).
     */
    private static void trainSync() throws IOException {
        java.nio.file.Path root = java.nio.file.Files.createTempDirectory("mover-aot-sync");
        try {
            java.nio.file.Path in = root.resolve("in");
            for (int folder = 0; folder < 20; folder++) {
                java.nio.file.Path dir = java.nio.file.Files.createDirectories(in.resolve("d" + folder));
                for (int file = 0; file < 100; file++) {
                    java.nio.file.Files.writeString(dir.resolve("f" + file), "mover " + folder + " " + file);
                }
            }
            String out = root.resolve("out").toString();
            run("sync", "--delete-destination", "true", in.toString(), out);
            run("sync", "--delete-destination", "true", in.toString(), out);
            run("sync", "--output", "json", in.toString(), out);
        }
        finally {
            try (java.util.stream.Stream<java.nio.file.Path> paths = java.nio.file.Files.walk(root)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** A copy to a receiver in this process ({@code tcp://} on loopback): Netty, the peer protocol and the codecs get cached too. */
    private static void overLoopback(String source, String destination) throws IOException, InterruptedException {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
        Thread receiver = Thread.ofPlatform().name("aot-receiver").start(() -> Main.commandLine(new CliContext(false, false, Map.of()), nowhere, nowhere)
                .execute("receive", "--listen", "127.0.0.1:" + port, destination));
        try {
            for (int attempt = 0; attempt < 200; attempt++) {
                try (java.net.Socket ignored = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
                    break;
                }
                catch (IOException notYet) {
                    Thread.sleep(25);
                }
            }
            run("copy", "--codec", "auto", source, "tcp://127.0.0.1:" + port + "/aot");
        }
        finally {
            receiver.interrupt();
            receiver.join(10_000);
        }
    }

    /** A failed step fails the training, so the launcher says it runs without a cache rather than caching a broken path. */
    private static void run(String... args) {
        PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
        int code = Main.commandLine(new CliContext(false, false, Map.of()), nowhere, nowhere).execute(args);
        if (code != 0) {
            throw new IllegalStateException("training step " + String.join(" ", args) + " exited with " + code);
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String body = path.equals("/api/v1/jobs") ? "{\"items\":[" + JOB + "],\"offset\":0,\"limit\":50,\"hasMore\":false}" : JOB;
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
