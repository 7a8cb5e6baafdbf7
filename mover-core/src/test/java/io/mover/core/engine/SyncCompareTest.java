package io.mover.core.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.mover.spi.Entry;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;

/** The time compare in long arithmetic agrees with the Duration rule it replaced: |difference| < precision. */
class SyncCompareTest {
    private static final Instant T = Instant.parse("2026-11-27T12:00:00.500000000Z");

    private static boolean same(Duration precision, Instant a, Instant b) {
        SyncCompare compare = new SyncCompare(SyncOptions.ComparePolicy.SIZE_MTIME, precision, new MemoryStore(), Optional.empty(), false);
        boolean result = compare.sameTime(Entry.file(RelativePath.of("a"), 1, a), Entry.file(RelativePath.of("a"), 1, b));
        assertThat(compare.sameTime(Entry.file(RelativePath.of("a"), 1, b), Entry.file(RelativePath.of("a"), 1, a)))
                .as("symmetric").isEqualTo(result);
        assertThat(result).as("as Duration.between").isEqualTo(Duration.between(a, b).abs().compareTo(precision) < 0);
        return result;
    }

    @Test
    void timesWithinThePrecisionAreTheSame() {
        Duration ns = Duration.ofNanos(1);
        assertThat(same(ns, T, T)).isTrue();
        assertThat(same(ns, T, T.plusNanos(1))).isFalse();
        Duration twoSeconds = Duration.ofSeconds(2);
        assertThat(same(twoSeconds, T, T.plusMillis(1999))).isTrue();
        assertThat(same(twoSeconds, T, T.plusSeconds(2))).isFalse();
        assertThat(same(twoSeconds, T, T.minusNanos(1_999_999_999))).isTrue();
        assertThat(same(twoSeconds, T, T.minusSeconds(3))).isFalse();
        // a difference whose nanoseconds borrow from its seconds
        assertThat(same(Duration.ofMillis(100), Instant.parse("2026-11-27T12:00:00.95Z"), Instant.parse("2026-11-27T12:00:01.04Z"))).isTrue();
        assertThat(same(Duration.ofMillis(100), Instant.parse("2026-11-27T12:00:00.95Z"), Instant.parse("2026-11-27T12:00:01.05Z"))).isFalse();
        // far apart: no overflow
        assertThat(same(twoSeconds, Instant.MIN, Instant.MAX)).isFalse();
        assertThat(same(Duration.ofNanos(100), Instant.EPOCH, T)).isFalse();
    }

    @Test
    void aPrecisionTooCoarseForNanosecondsStillCompares() {
        Duration ages = Duration.ofSeconds(2_000_000_000L);
        assertThat(same(ages, T, T.plusSeconds(1_999_999_999L))).isTrue();
        assertThat(same(ages, T, T.plusSeconds(2_000_000_000L))).isFalse();
        assertThat(same(ages, Instant.MIN, Instant.MAX)).isFalse();
    }
}
