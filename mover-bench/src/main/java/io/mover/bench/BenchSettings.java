package io.mover.bench;

import java.util.Map;

import io.mover.core.engine.BenchOptions;
import io.mover.core.engine.JobKind;
import io.mover.core.engine.JobSpec;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/** What a bench does: a transfer sweep or the four corners. The constructors check the values (USER errors). */
public sealed interface BenchSettings permits TransferSettings, IoSettings {
    /** Where to measure (a path or URI). */
    String target();

    /** The target plugin's settings. */
    Map<String, String> targetConfig();

    /**
     * The settings of a bench job: its destination is the target, {@code options.bench} the bench's options,
     * {@code options.blockSize} and {@code options.codec} the transfer sweep's.
     *
     * @throws MoverException INVALID_ARGUMENT naming the option, as {@code mover bench} does
     */
    static BenchSettings of(JobSpec spec) {
        if (spec.kind() != JobKind.BENCH) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "a " + spec.kind() + " job is not a bench");
        }
        spec.options().validate();
        BenchOptions b = spec.options().bench();
        return switch (b.mode()) {
            case IO -> new IoSettings(spec.destination(), spec.destinationConfig(), b.ioSize(), b.queueDepths(), b.writeBlockSizes(), b.runtime(),
                    b.keep(), b.folder());
            case TRANSFER -> new TransferSettings(spec.destination(), spec.destinationConfig(), b.files(), b.fileSize(), b.data(), b.concurrencies(),
                    spec.options().blockSize(), spec.options().codec(), b.keep(), b.folder(), b.streams(), b.codecs());
        };
    }
}
