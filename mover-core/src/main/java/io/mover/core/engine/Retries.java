package io.mover.core.engine;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import static java.util.Objects.requireNonNull;

/** A run's retry policy: retryable errors are tried again after an exponential, jittered backoff. */
final class Retries {
    private static final System.Logger LOG = System.getLogger(Retries.class.getName());

    private final TransferOptions options;
    private final JobCounters counters;
    private final BooleanSupplier stopped;

    Retries(TransferOptions options, JobCounters counters, BooleanSupplier stopped) {
        this.options = requireNonNull(options, "options is null");
        this.counters = requireNonNull(counters, "counters is null");
        this.stopped = requireNonNull(stopped, "stopped is null");
    }

    /** Runs {@code action}, again after a backoff for retryable errors, up to the configured retries. */
    <T> T call(Supplier<T> action) {
        return call(action, new AtomicInteger());
    }

    /** As {@link #call(Supplier)}, raising {@code attempts} to the most attempts any call needed. */
    <T> T call(Supplier<T> action, AtomicInteger attempts) {
        for (int attempt = 0; ; attempt++) {
            int tried = attempt + 1;
            attempts.accumulateAndGet(tried, Math::max);
            try {
                return action.get();
            }
            catch (MoverException e) {
                if (!e.isRetryable() || attempt >= options.maxRetries() || stopped.getAsBoolean()) {
                    throw e;
                }
                LOG.log(System.Logger.Level.DEBUG, "retrying after {0}", e.getMessage());
                backoff(attempt);
            }
        }
    }

    /** Sleeps the exponential backoff of {@code attempt} (0-based), with jitter so retries do not align. */
    void backoff(int attempt) {
        counters.retries.increment();
        EngineStats.retried();
        long base = options.retryBackoff().toMillis() << Math.min(attempt, 10);
        long millis = Math.min(30_000, base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1));
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while waiting to retry", e);
        }
    }

    /** An {@link Error} as a file's failure; the error itself still goes on up. */
    static MoverException unexpected(Error e) {
        return new MoverException(ErrorCode.INTERNAL, "unexpected " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }

    /** Any exception as the MoverException it stands for; a bug becomes INTERNAL. */
    static MoverException unexpected(RuntimeException e) {
        if (e instanceof MoverException mover) {
            return mover;
        }
        if (e.getCause() instanceof java.io.IOException io) {
            return new MoverException(ErrorCode.IO_ERROR, io.getMessage() == null ? io.getClass().getSimpleName() : io.getMessage(), e);
        }
        return new MoverException(ErrorCode.INTERNAL, "unexpected " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
}
