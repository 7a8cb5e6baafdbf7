package io.mover.plugins.azurefiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.mover.plugins.azurefiles.fileservice.FileServiceDouble;
import io.mover.spi.Entry;
import io.mover.spi.RelativePath;

/**
 * The no-change compare of two shares, as a sync needs it, through the plugin and the real SDK against the double
 * (latency per request, IOPS limit): both trees listed with attributes (directories crawled in parallel), entries
 * compared by size and last-write time. Then, for contrast, the azcopy way on a sample: one property call per file
 * on each side. Prints seconds and requests per file. Usage: FILES LATENCY_MS IOPS SAMPLE FILES_PER_DIRECTORY
 */
public final class AzureFilesCompareBench {
    private AzureFilesCompareBench() {}

    public static void main(String[] args) throws Exception {
        int files = Integer.parseInt(args[0]);
        long latencyMs = Long.parseLong(args[1]);
        int iops = Integer.parseInt(args[2]);
        int sample = Integer.parseInt(args[3]);
        int perDirectory = Integer.parseInt(args[4]);
        Path scratch = Files.createTempDirectory("compare-bench");
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "left").share(TestService.ACCOUNT, "right");
        Instant mtime = Instant.parse("2025-01-01T00:00:00Z");
        for (int i = 0; i < files; i++) {
            String path = "d" + (i / perDirectory) + "/f" + i;
            service.seed(TestService.ACCOUNT, "left", path, 1 << 20, mtime);
            service.seed(TestService.ACCOUNT, "right", path, 1 << 20, mtime);
        }
        service.faults().latencyNanos = latencyMs * 1_000_000;
        service.faults().operationsPerSecond = iops;
        var context = TestService.context(scratch, "bench");
        service.resetCounts();   // from the open on: its check of each root is counted (it is the root's first listing page)
        long start = System.nanoTime();
        try (AzureFilesSource left = TestService.source(TestService.ACCOUNT, "left", Map.of(), context);
                AzureFilesSource right = TestService.source(TestService.ACCOUNT, "right", Map.of(), context)) {
            Map<RelativePath, Entry> other = new HashMap<>();
            try (Stream<Entry> entries = right.listRecursively(RelativePath.ROOT)) {
                entries.forEach(entry -> other.put(entry.path(), entry));
            }
            long differing = 0;
            long compared = 0;
            try (Stream<Entry> entries = left.listRecursively(RelativePath.ROOT)) {
                for (Entry entry : (Iterable<Entry>) entries::iterator) {
                    Entry twin = other.get(entry.path());
                    compared += entry.isFile() ? 1 : 0;
                    if (entry.isFile() && (twin == null || twin.size() != entry.size() || !twin.lastModified().equals(entry.lastModified()))) {
                        differing++;
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long requests = service.count("all");
            System.out.printf("listing compare: %d files each side, %.1f s, %d requests (%.4f per file; %d listings), %d throttled, %d differing%n",
                    compared, seconds, requests, requests / (double) compared, service.count("GET restype=directory comp=list"), service.count("throttled"), differing);

            service.resetCounts();
            List<RelativePath> paths = other.keySet().stream().filter(p -> other.get(p).isFile()).limit(sample).toList();
            AtomicLong done = new AtomicLong();
            start = System.nanoTime();
            try (var pool = Executors.newFixedThreadPool(16)) {
                for (RelativePath path : paths) {
                    pool.execute(() -> {
                        left.stat(path);
                        right.stat(path);
                        done.incrementAndGet();
                    });
                }
            }
            seconds = (System.nanoTime() - start) / 1e9;
            requests = service.count("all");
            System.out.printf("property call per file (azcopy's way), sample of %d files, 16 threads: %.1f s, %d requests (%.2f per file), "
                    + "extrapolated to %d files: %.0f s%n", done.get(), seconds, requests, requests / (double) done.get(), compared, seconds * compared / done.get());
        }
        service.close();
        System.exit(0);
    }
}
