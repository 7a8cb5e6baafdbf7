package io.mover.plugins.gen.bench;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;

import io.mover.plugins.gen.GenSourceFactory;
import io.mover.spi.EndpointUri;
import io.mover.spi.PluginContext;
import io.mover.spi.RelativePath;
import io.mover.spi.Source;
import io.mover.spi.SourceReader;

/**
 * How fast {@code gen://} serves bytes: one thread reads GIB GiB of each data kind in 1 MiB positional
 * reads into one direct buffer, RUNS times; prints GiB/s per run. Run by {@code bench/gen.sh}.
 */
public final class GenThroughput {
    private GenThroughput() {}

    public static void main(String[] args) {
        int gib = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        GenSourceFactory factory = new GenSourceFactory();
        PluginContext context = new PluginContext("bench", Path.of(System.getProperty("java.io.tmpdir")), Clock.systemUTC(), System.getLogger("bench"));
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        for (String data : new String[] {"zeros", "random", "text", "mixed"}) {
            EndpointUri uri = EndpointUri.parse("gen:///?files=1&size=" + gib + "GiB&data=" + data);
            try (Source source = factory.create(uri, factory.configSpec().parse(Map.of()), context);
                    SourceReader reader = source.open(RelativePath.of("f0.bin"))) {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-7s", data));
                for (int run = 0; run < runs; run++) {
                    long start = System.nanoTime();
                    long position = 0;
                    while (position < reader.size()) {
                        buffer.clear();
                        position += reader.read(position, buffer);
                    }
                    line.append(String.format(Locale.ROOT, " %6.1f GiB/s", gib / ((System.nanoTime() - start) / 1e9)));
                }
                System.out.println(line);
            }
        }
    }
}
