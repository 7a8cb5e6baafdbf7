package io.mover.plugins.codecs.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

import io.mover.plugins.codecs.CodecsPlugin;
import io.mover.spi.Codec;
import io.mover.spi.CodecFactory;

/**
 * Measures block compress and decompress throughput of each codec on ~64 MiB of mixed data, on one
 * thread and on N threads (blocks split across threads, one codec instance each, as the engine does),
 * and compares the 2-thread encode+decode figure with the single-core figures of DESIGN §10.
 * On a shared machine the N threads may not get N cores, so it also measures the CPU time the
 * threads got ("cores got") and what N fully available cores would give at the measured per-CPU-second
 * speed ("N-core est."): independent blocks scale that way when nothing else competes.
 * Benchmarks measure, tests assert: this prints, it does not fail on slow numbers.
 *
 * <p>Arguments: {@code [--mib 64] [--runs 3] [--threads 2] [--codecs lz4,zstd:1,...]}.
 */
public final class CodecThroughput {
    /** DESIGN §10, one core: zstd:1 compress 517 MB/s, decompress 1.5 GB/s; lz4 compress 721 MB/s (no decompress figure given). */
    private static final Map<String, double[]> DESIGN_SINGLE_CORE = Map.of("zstd:1", new double[] {517, 1500}, "lz4", new double[] {721, Double.NaN});
    private static final double TARGET_SCALING = 1.6;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CodecThroughput() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        int mib = Integer.parseInt(options.getOrDefault("mib", "64"));
        int runs = Integer.parseInt(options.getOrDefault("runs", "3"));
        int threads = Integer.parseInt(options.getOrDefault("threads", "2"));
        List<String> codecs = List.of(options.getOrDefault("codecs", "lz4,snappy,lzo,zstd:1,zstd:3,deflate:1,deflate:6,gzip:6").split(","));

        List<ByteBuffer> blocks = BenchCorpus.build(mib);
        long rawBytes = blocks.stream().mapToLong(ByteBuffer::remaining).sum();
        System.out.printf("corpus: %d blocks, %.1f MiB (JDK classes, native code, text, random); %d run(s), median reported; %d cores available%n",
                blocks.size(), rawBytes / 1048576.0, runs, Runtime.getRuntime().availableProcessors());
        System.out.printf("%-10s %-6s %6s | %8s %8s %8s | %8s %8s %8s | %7s | %9s %12s | %s%n", "codec", "impl", "ratio",
                "1T comp", "1T dec", "1T c+d", threads + "T comp", threads + "T dec", threads + "T c+d", "scaling", "cores got",
                threads + "-core est.", "vs DESIGN §10 single core");
        Map<String, CodecFactory> factories = new LinkedHashMap<>();
        new CodecsPlugin().codecFactories().forEach(f -> factories.put(f.name(), f));
        for (String spec : codecs) {
            String[] parts = spec.split(":");
            CodecFactory factory = factories.get(parts[0]);
            if (factory == null) {
                throw new IllegalArgumentException("unknown codec " + parts[0] + "; known: " + factories.keySet());
            }
            int level = parts.length > 1 ? Integer.parseInt(parts[1]) : factory.defaultLevel();
            report(spec, factory, level, blocks, rawBytes, runs, threads);
        }
    }

    private static void report(String spec, CodecFactory factory, int level, List<ByteBuffer> blocks, long rawBytes, int runs, int threads) throws Exception {
        Codec probe = factory.create(level);
        List<ByteBuffer> compressed = new ArrayList<>();
        for (ByteBuffer block : blocks) {
            compressed.add(ByteBuffer.allocateDirect(probe.maxCompressedLength(block.remaining())));
        }
        // warm-up (JIT for the Java codecs) and a correctness check, both untimed
        runPass(factory, level, blocks, compressed, 1, true);
        long compressedBytes = compressed.stream().mapToLong(ByteBuffer::remaining).sum();
        verify(factory.create(level), blocks, compressed);

        double[][] figures = new double[7][runs];
        for (int run = 0; run < runs; run++) {
            figures[0][run] = runPass(factory, level, blocks, compressed, 1, true).wallRate(rawBytes);
            figures[1][run] = runPass(factory, level, blocks, compressed, 1, false).wallRate(rawBytes);
            Pass compressPass = runPass(factory, level, blocks, compressed, threads, true);
            Pass decompressPass = runPass(factory, level, blocks, compressed, threads, false);
            figures[2][run] = compressPass.wallRate(rawBytes);
            figures[3][run] = decompressPass.wallRate(rawBytes);
            figures[4][run] = (double) (compressPass.cpuNanos() + decompressPass.cpuNanos()) / (compressPass.wallNanos() + decompressPass.wallNanos());
            figures[5][run] = threads * compressPass.cpuRate(rawBytes);
            figures[6][run] = threads * decompressPass.cpuRate(rawBytes);
        }
        double compress1 = median(figures[0]);
        double decompress1 = median(figures[1]);
        double compressN = median(figures[2]);
        double decompressN = median(figures[3]);
        double both1 = encodeDecode(compress1, decompress1);
        double bothN = encodeDecode(compressN, decompressN);
        double estimateCompress = median(figures[5]);
        double estimateDecompress = median(figures[6]);
        double estimateBoth = encodeDecode(estimateCompress, estimateDecompress);
        System.out.printf("%-10s %-6s %5.2fx | %8.0f %8.0f %8.0f | %8.0f %8.0f %8.0f | %6.2fx | %9.2f %12.0f | %s%n", spec, factory.implementation(),
                (double) rawBytes / compressedBytes, compress1, decompress1, both1, compressN, decompressN, bothN, bothN / both1,
                median(figures[4]), estimateBoth, versusDesign(spec, bothN, estimateBoth, decompress1));
    }

    /** Raw MB/s through compress then decompress of the same bytes: 1 / (1/c + 1/d). */
    private static double encodeDecode(double compress, double decompress) {
        return 1 / (1 / compress + 1 / decompress);
    }

    private static String versusDesign(String spec, double wallBoth, double estimateBoth, double measuredDecompress1) {
        double[] design = DESIGN_SINGLE_CORE.get(spec);
        if (design == null) {
            return "";
        }
        // lz4 has no single-core decompress figure in DESIGN §10: this machine's 1-thread figure stands in
        double designDecompress = Double.isNaN(design[1]) ? measuredDecompress1 : design[1];
        double designBoth = encodeDecode(design[0], designDecompress);
        return String.format("DESIGN c+d %.0f%s; measured %.2fx, estimate %.2fx (target %.1fx: %s)", designBoth,
                Double.isNaN(design[1]) ? " (dec: this machine's 1T)" : "", wallBoth / designBoth, estimateBoth / designBoth, TARGET_SCALING,
                estimateBoth / designBoth >= TARGET_SCALING ? "met on the estimate" : "not met");
    }

    /**
     * One timed pass over all blocks with {@code threads} threads, each with its own codec instance and
     * taking every {@code threads}-th block. Returns the wall-clock nanoseconds.
     */
    private static Pass runPass(CodecFactory factory, int level, List<ByteBuffer> blocks, List<ByteBuffer> compressed, int threads, boolean compress)
            throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Codec> codecs = new ArrayList<>();
            List<ByteBuffer> outputs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                codecs.add(factory.create(level));
                outputs.add(ByteBuffer.allocateDirect(BenchCorpus.BLOCK_SIZE));
            }
            long start = System.nanoTime();
            List<Future<Long>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                futures.add(executor.submit(() -> {
                    long cpuStart = THREADS.getCurrentThreadCpuTime();
                    for (int i = first; i < blocks.size(); i += threads) {
                        ByteBuffer raw = blocks.get(i);
                        ByteBuffer encoded = compressed.get(i);
                        if (compress) {
                            encoded.clear();
                            codecs.get(first).compress(raw.duplicate(), encoded);
                            encoded.flip();
                        }
                        else {
                            ByteBuffer output = outputs.get(first).clear();
                            codecs.get(first).decompress(encoded.duplicate(), output, raw.remaining());
                        }
                    }
                    return THREADS.getCurrentThreadCpuTime() - cpuStart;
                }));
            }
            long cpuNanos = 0;
            for (Future<Long> future : futures) {
                cpuNanos += future.get(10, TimeUnit.MINUTES);
            }
            return new Pass(System.nanoTime() - start, cpuNanos);
        }
        finally {
            executor.shutdownNow();
        }
    }

    private static void verify(Codec codec, List<ByteBuffer> blocks, List<ByteBuffer> compressed) {
        ByteBuffer output = ByteBuffer.allocateDirect(BenchCorpus.BLOCK_SIZE);
        for (int i = 0; i < blocks.size(); i++) {
            output.clear();
            codec.decompress(compressed.get(i).duplicate(), output, blocks.get(i).remaining());
            if (crc(output.flip()) != crc(blocks.get(i))) {
                throw new IllegalStateException(codec.name() + ": block " + i + " did not round-trip");
            }
        }
    }

    private static long crc(ByteBuffer buffer) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.duplicate());
        return crc.getValue();
    }

    /** One pass: wall-clock time, and the CPU time its threads got. */
    private record Pass(long wallNanos, long cpuNanos) {
        double wallRate(long bytes) {
            return bytes / 1e6 / (wallNanos / 1e9);
        }

        /** MB/s per CPU-second: what one core gives when it is not taken away. */
        double cpuRate(long bytes) {
            return bytes / 1e6 / (cpuNanos / 1e9);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("usage: CodecThroughput [--mib 64] [--runs 3] [--threads 2] [--codecs lz4,zstd:1,...]");
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }
}
