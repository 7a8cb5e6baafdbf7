package io.mover.jobstore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves one second per reading: every timestamp the store writes is distinct and ordered. */
final class StepClock extends Clock {
    private final Instant start;
    private final AtomicLong ticks = new AtomicLong();

    StepClock(Instant start) {
        this.start = start;
    }

    @Override
    public Instant instant() {
        return start.plus(Duration.ofSeconds(ticks.getAndIncrement()));
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
