package io.mover.plugins.tcp;

import io.mover.spi.LinkSink;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which of the writers' waiting the meter gives to the link (the figure {@code --codec auto} measures it by). */
class LinkMeterTest {
    private static final long SECOND = 1_000_000_000L;

    /** Writers waiting all the time for 3 s with nothing queued at this end, the receiver busy {@code busyShare} of it. */
    private static LinkSink.Load waitedThreeSeconds(double busyShare) {
        LinkMeter meter = new LinkMeter();
        meter.answered(0, SECOND);
        for (int second = 2; second <= 4; second++) {
            meter.waited(SECOND, false);
            meter.answered((long) ((second - 1) * busyShare * SECOND), second * SECOND);
        }
        return meter.load(4 * SECOND);
    }

    @Test
    void waitingForABusyReceiverIsNotTheLinks() {
        LinkSink.Load load = waitedThreeSeconds(1);

        assertThat(load.nanosWaiting()).isEqualTo(3 * SECOND);
        assertThat(load.farEndBusyNanos()).isEqualTo(3 * SECOND);
        assertThat(load.linkBoundNanos()).isZero();
    }

    /** A receiver with little in hand does not make the waiting the link's: the socket took every byte. */
    @Test
    void anIdleReceiverAloneDoesNotMakeTheWaitingTheLinks() {
        assertThat(waitedThreeSeconds(0.5).linkBoundNanos()).isZero();
    }

    @Test
    void waitsWithBytesQueuedAtThisEndAreTheLinks() {
        LinkMeter meter = new LinkMeter();
        meter.waited(SECOND, false);
        assertThat(meter.load(SECOND).linkBoundNanos()).isZero();

        meter.waited(SECOND, true);
        LinkSink.Load load = meter.load(2 * SECOND);
        assertThat(load.linkBoundNanos()).isEqualTo(SECOND);
        assertThat(load.nanosWaiting()).isEqualTo(2 * SECOND);
    }

    /** Between answers the last share carries on, so a sample between them sees the estimate grow, never fall. */
    @Test
    void theReceiversBusyTimeCarriesOnBetweenAnswers() {
        LinkMeter meter = new LinkMeter();
        assertThat(meter.load(SECOND).farEndBusyNanos()).isZero();
        meter.answered(0, SECOND);
        meter.answered(SECOND / 2, 2 * SECOND);

        assertThat(meter.load(3 * SECOND).farEndBusyNanos()).isEqualTo(SECOND);
        // the next answer says less than the estimate: it stays where it was
        meter.answered(SECOND / 2 + SECOND / 10, 3 * SECOND);
        assertThat(meter.load(3 * SECOND).farEndBusyNanos()).isEqualTo(SECOND);
    }
}
