package io.mover.core.codec;

import io.mover.spi.LinkSink;

/**
 * What a link did between two of its {@link LinkSink.Load} readings, per second: the encoded bytes it sent, the raw
 * bytes the far end acknowledged, and the shares of the time the writers spent waiting, the far end spent busy with
 * blocks, and the writers spent waiting on the link itself. Which of them set the pace decides what the sample says
 * about the link ({@link AutoChoice#observeLink}).
 */
record LinkSample(double sentPerSecond, double rawPerSecond, double waitingShare, double farEndBusy, double linkShare) {

    static LinkSample between(LinkSink.Load before, LinkSink.Load after, long elapsedNanos) {
        return new LinkSample((after.bytesSent() - before.bytesSent()) * 1e9 / elapsedNanos,
                (after.rawBytesAcknowledged() - before.rawBytesAcknowledged()) * 1e9 / elapsedNanos,
                (double) (after.nanosWaiting() - before.nanosWaiting()) / elapsedNanos,
                (double) (after.farEndBusyNanos() - before.farEndBusyNanos()) / elapsedNanos,
                (double) (after.linkBoundNanos() - before.linkBoundNanos()) / elapsedNanos);
    }

    /** Writers waited most of the time: the link or the far end, not the sender's CPU, set the pace. */
    boolean writersWaited() {
        return waitingShare >= 0.5;
    }

    /**
     * Blocks waited for the far end, not the link: writers waited, the far end was busy, and at most half of the
     * waiting was on the link. Most of the waiting on the link itself means the link set the pace, however busy the
     * far end (mixed data at 1 Gbit, 3.2 of 5.0 s on the link with the receiver busy 78 % of the time, capped zstd at
     * 169 MB/s there for good).
     */
    boolean farEndSetThePace() {
        return writersWaited() && farEndBusy >= 0.5 && linkShare <= waitingShare / 2;
    }

    /** The writers spent most of the time waiting on the link itself: what it sent is its capacity. */
    boolean linkSetThePace() {
        return linkShare >= 0.5;
    }
}
