package io.mover.jobstore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock for tests: it stands still until the test moves it (schedules fire and RPOs age only when told), or it
 * steps by a fixed amount at every reading (every timestamp a store writes is distinct and ordered).
 */
public final class TestClock extends Clock {
    private final AtomicReference<Instant> now;
    private final Duration step;

    private TestClock(Instant start, Duration step) {
        this.now = new AtomicReference<>(start);
        this.step = step;
    }

    public static TestClock at(Instant start) {
        return new TestClock(start, Duration.ZERO);
    }

    public static TestClock stepping(Instant start, Duration step) {
        return new TestClock(start, step);
    }

    public void advance(Duration duration) {
        now.updateAndGet(instant -> instant.plus(duration));
    }

    @Override
    public Instant instant() {
        return now.getAndUpdate(instant -> instant.plus(step));
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
