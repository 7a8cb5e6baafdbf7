package io.mover.plugins.azurefiles.fileservice;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the File service double as a process, for benchmarks and manual trials:
 * {@code --account NAME=BASE64KEY} (repeatable), {@code --share ACCOUNT/SHARE} (repeatable), {@code --latency-ms N},
 * {@code --mbps N} (megabytes per second, shared), {@code --iops N} (503 ServerBusy past it), {@code --retry-after S},
 * {@code --drop-every N}, {@code --keep-content false} (uploads not stored, for upload benchmarks). Prints {@code READY http://127.0.0.1:PORT} and serves until killed.
 */
public final class FileServiceMain {
    private FileServiceMain() {}

    public static void main(String[] args) throws Exception {
        FileServiceDouble service = FileServiceDouble.start(Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "mover-file-service")));
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--account" -> service.account(value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1));
                case "--share" -> service.share(value.substring(0, value.indexOf('/')), value.substring(value.indexOf('/') + 1));
                case "--latency-ms" -> service.faults().latencyNanos = Long.parseLong(value) * 1_000_000L;
                case "--mbps" -> service.faults().bytesPerSecond = Long.parseLong(value) * 1_000_000L;
                case "--iops" -> service.faults().operationsPerSecond = Integer.parseInt(value);
                case "--retry-after" -> service.faults().retryAfterSeconds = Integer.parseInt(value);
                case "--drop-every" -> service.faults().dropEvery = Integer.parseInt(value);
                case "--keep-content" -> service.keepContent(Boolean.parseBoolean(value));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(service::close));
        System.out.println("READY http://127.0.0.1:" + service.port());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
