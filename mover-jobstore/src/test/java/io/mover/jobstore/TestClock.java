package io.mover.jobstore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock for tests that the test moves by hand: either it also runs at the speed of real time from its start (what
 * db-scheduler needs: its poller waits "until now + the polling interval" on this clock, so a clock standing still
 * would stop it polling), or it steps by a fixed amount at every reading (every timestamp a store writes is distinct
 * and ordered).
 */
public final class TestClock extends Clock {
    private final AtomicReference<Instant> now;
    private final Duration step;
    private final long startNanos;
    private final boolean running;

    private TestClock(Instant start, Duration step, boolean running) {
        this.now = new AtomicReference<>(start);
        this.step = step;
        this.startNanos = System.nanoTime();
        this.running = running;
    }

    /** Starts at {@code start}, runs as real time does, and jumps when {@link #advance} is called. */
    public static TestClock running(Instant start) {
        return new TestClock(start, Duration.ZERO, true);
    }

    public static TestClock stepping(Instant start, Duration step) {
        return new TestClock(start, step, false);
    }

    public void advance(Duration duration) {
        now.updateAndGet(instant -> instant.plus(duration));
    }

    @Override
    public Instant instant() {
        Instant base = now.getAndUpdate(instant -> instant.plus(step));
        return running ? base.plusNanos(System.nanoTime() - startNanos) : base;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }
}
