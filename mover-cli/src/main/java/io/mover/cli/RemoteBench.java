package io.mover.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.mover.bench.BenchReport;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/**
 * {@code mover bench --server URL}: the same bench as a job of that server ({@code POST /api/v1/benches}),
 * followed until it ends; its report is printed as a local run's is. The bench runs in the server, so
 * TARGET is the server's path.
 */
final class RemoteBench {
    private static final Duration POLL = Duration.ofMillis(500);

    /** What the client reads of {@code GET /api/v1/benches/{id}} (the server's BenchResponse), as RestRecords does for jobs. */
    record BenchJob(String id, String state, String ended, String error, String code, BenchReport report) {}

    private final ServerClient client;
    private final PrintWriter err;

    RemoteBench(ServerClient client, PrintWriter err) {
        this.client = requireNonNull(client, "client is null");
        this.err = requireNonNull(err, "err is null");
    }

    /** The request body: the command's options under the API's names (docs/rest.md, "Bench jobs"). */
    static Map<String, Object> body(BenchCommand command) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", command.mode.name().toLowerCase(java.util.Locale.ROOT));
        body.put("target", command.target);
        body.put("destinationConfig", command.targetConfig);
        body.put("files", command.files);
        body.put("size", Long.toString(command.size));
        body.put("data", command.data);
        body.put("concurrency", command.concurrencies);
        body.put("blockSize", Long.toString(command.blockSize));
        body.put("codec", command.codec);
        body.put("keep", command.keep);
        body.put("folder", command.folder);
        body.put("ioSize", Long.toString(command.ioSize));
        body.put("queueDepths", command.queueDepths);
        body.put("runtime", command.runtime.toMillis() + "ms");
        body.put("writeBlockSizes", command.writeBlockSizes.stream().map(String::valueOf).toList());
        body.put("streams", command.streams);
        body.put("codecs", command.codecs);
        return body;
    }

    /** Submits, waits for the end, and returns the report; a failed bench is its error, with its code. */
    BenchReport run(Map<String, Object> body) throws InterruptedException {
        BenchJob bench = client.submitBench(body);
        err.println("mover: bench " + bench.id() + " submitted to " + client.base());
        err.flush();
        while (bench.ended() == null) {
            Thread.sleep(POLL);
            bench = client.bench(bench.id());
        }
        if (!bench.state().equals("SUCCEEDED")) {
            ErrorCode code = bench.code() == null ? ErrorCode.CANCELLED : ErrorCode.valueOf(bench.code());
            throw new MoverException(code, bench.error() == null ? "the bench was cancelled" : bench.error());
        }
        return bench.report();
    }
}
