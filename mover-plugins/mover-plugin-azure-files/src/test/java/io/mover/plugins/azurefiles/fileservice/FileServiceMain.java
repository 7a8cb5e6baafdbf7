package io.mover.plugins.azurefiles.fileservice;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the File service double as a process, for benchmarks and manual trials:
 * {@code --account NAME=BASE64KEY} (repeatable), {@code --share ACCOUNT/SHARE} (repeatable), {@code --latency-ms N},
 * {@code --mbps N} (megabytes per second, shared), {@code --iops N} (503 ServerBusy past it), {@code --retry-after S},
 * {@code --drop-every N}, {@code --keep-content false} (uploads not stored, for upload benchmarks),
 * {@code --seed ACCOUNT/SHARE:FILES:PER_DIR} (repeatable; see {@link #seed}). Prints {@code READY http://127.0.0.1:PORT}
 * once seeded and serves until killed.
 */
public final class FileServiceMain {
    /** The last-write time of every seeded file and folder: two shares seeded alike compare as equal. */
    static final Instant SEED_TIME = Instant.parse("2025-01-01T00:00:00Z");

    private FileServiceMain() {}

    public static void main(String[] args) throws Exception {
        FileServiceDouble service = FileServiceDouble.start(Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "mover-file-service")));
        List<String> seeds = new ArrayList<>();
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
                case "--seed" -> seeds.add(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        // after every option: a seeded share must exist, whatever the order of --share and --seed
        for (String seed : seeds) {
            seed(service, seed);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(service::close));
        System.out.println("READY http://127.0.0.1:" + service.port());
        System.out.flush();
        new CountDownLatch(1).await();
    }

    /**
     * {@code ACCOUNT/SHARE:FILES:PER_DIR}: FILES files of 1 MiB, {@code dN/fI} with PER_DIR per folder, all with
     * {@link #SEED_TIME}, placed past the REST API ({@link FileServiceDouble#seed}, as {@code AzureFilesCompareBench}
     * does): nothing is counted, no content is stored (it reads as zeros), and the protocol is unchanged. For the
     * no-change sync of {@code bench/azure-files.sh}, which needs two equal shares of 100,000 files without uploading them.
     */
    static void seed(FileServiceDouble service, String spec) {
        String[] parts = spec.split(":");
        if (parts.length != 3 || parts[0].indexOf('/') < 0) {
            throw new IllegalArgumentException("--seed takes ACCOUNT/SHARE:FILES:PER_DIR, not " + spec);
        }
        String account = parts[0].substring(0, parts[0].indexOf('/'));
        String share = parts[0].substring(parts[0].indexOf('/') + 1);
        int files = Integer.parseInt(parts[1]);
        int perDirectory = Integer.parseInt(parts[2]);
        if (files < 0 || perDirectory < 1) {
            throw new IllegalArgumentException("--seed needs FILES >= 0 and PER_DIR >= 1: " + spec);
        }
        for (int i = 0; i < files; i++) {
            service.seed(account, share, "d" + (i / perDirectory) + "/f" + i, 1 << 20, SEED_TIME);
        }
    }
}
