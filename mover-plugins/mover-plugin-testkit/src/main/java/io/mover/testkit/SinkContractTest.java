package io.mover.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import io.mover.spi.PluginContext;
import io.mover.spi.Sink;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink contract, as JUnit 5 cases a plugin author runs against their own {@link Sink}: extend this
 * class in your test sources and implement the three hooks of {@link SinkFixture}
 * ({@link #createSink}, {@link #readBack}, {@link #storedNames}); override
 * {@link #isTemporaryName} if your sink writes temporaries, and {@link #reservedNames} if it refuses
 * some names.
 *
 * <p>The cases live in {@link SinkTreeCases} (listing, directories, delete, errors),
 * {@link SinkWriterCases} (positional writes, commit, abort, visibility, overwrite) and
 * {@link SinkAttributeCases} (modification time, mode, odd names, stale temporaries). Where the SPI
 * javadoc leaves a point open, the case that tests it says which reading the kit takes.
 *
 * <p>Each case gets a fresh {@link ContractContext}: an empty directory and the job key
 * {@value #JOB_KEY}. Every case is bounded in time.
 */
@Timeout(60)
public abstract class SinkContractTest implements SinkTreeCases, SinkWriterCases, SinkAttributeCases {
    public static final String JOB_KEY = "contract-job";

    @TempDir
    private Path temporary;
    private ContractContext context;
    private Sink sink;
    private final List<Sink> opened = new ArrayList<>();

    @BeforeEach
    final void createSinkUnderTest() throws IOException {
        Path store = Files.createDirectories(temporary.resolve("store"));
        Path scratch = Files.createDirectories(temporary.resolve("scratch"));
        context = new ContractContext(store, new PluginContext(JOB_KEY, scratch, Clock.systemUTC(), System.getLogger("mover.testkit")));
        sink = open(context);
    }

    @AfterEach
    final void closeSinks() {
        for (Sink each : opened) {
            each.close();
        }
        opened.clear();
    }

    /** Another sink over the same store, closed after the case. */
    protected final Sink open(ContractContext sinkContext) {
        Sink created = createSink(sinkContext);
        opened.add(created);
        return created;
    }

    @Override
    public final Sink sink() {
        return sink;
    }

    @Override
    public final ContractContext context() {
        return context;
    }

    @Override
    public Sink reopen(ContractContext sinkContext) {
        return open(sinkContext);
    }
}
