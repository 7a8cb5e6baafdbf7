package io.mover.plugins.tcp;

import java.util.concurrent.atomic.LongAdder;

import io.mover.spi.LinkSink;

/**
 * A sender's measure of its link to one receiver, for {@code --codec auto} ({@link LinkSink.Load}): the bytes
 * acknowledged, the writers' waiting for window slots, the receiver's busy time as its LOAD answers tell, and
 * of the waiting, the part spent on the link itself: waits that began and ended with bytes this end's socket
 * would not take (the channel not writable). Only those say what the link carries. A full window alone does
 * not: it fills as well when the receiver, or either end's event loop on a busy machine, is the slow part, and
 * zeros, a thousand times smaller encoded, then made a loopback look like 0.1 MB/s. Nor does the receiver's idle
 * time: on loopback with zeros its connections had nothing in hand up to 44% of the time while every writer waited
 * (its frames and its replies queued behind both ends' threads on two shared cores). Thread-safe.
 */
final class LinkMeter {
    private final LongAdder waiting = new LongAdder();
    private final LongAdder queued = new LongAdder();
    private final LongAdder sent = new LongAdder();
    private final LongAdder rawAcknowledged = new LongAdder();
    /** When the previous LOAD answer came, and its figure; guarded by this. */
    private long answeredAt;
    private long busyAnswered;
    /** The share of the time between the last two answers, carried on until the next one; guarded by this. */
    private double busyShare;
    /** A never-decreasing estimate of the receiver's busy time per stream; guarded by this. */
    private long busyEstimate;

    /**
     * A writer waited {@code nanos} for a window slot; {@code queuedHere}: the stream's channel was not writable
     * when the wait began and when it ended (the socket would not take what was written: the link's pace).
     */
    void waited(long nanos, boolean queuedHere) {
        waiting.add(nanos);
        if (queuedHere) {
            queued.add(nanos);
        }
    }

    /**
     * Counts encoded bytes the receiver acknowledged: acknowledged, not handed to the socket, since a
     * window's worth goes into buffers at once and would make any link look fast.
     */
    void acknowledged(long bytes, long raw) {
        sent.add(bytes);
        rawAcknowledged.add(raw);
    }

    /**
     * A LOAD answer at {@code now}: the receiver's busy nanoseconds per stream. Answers come at uneven times (a
     * LOAD waits for a window slot like any request), so the share of time between the last two answers is
     * carried on until the next: the estimate grows smoothly instead of in steps that some samples would miss.
     */
    synchronized void answered(long busyPerStream, long now) {
        if (answeredAt != 0 && now > answeredAt) {
            busyShare = Math.clamp((double) (busyPerStream - busyAnswered) / (now - answeredAt), 0, 1);
        }
        busyEstimate = Math.max(busyEstimate, busyPerStream);
        busyAnswered = busyPerStream;
        answeredAt = now;
    }

    /** The counters at {@code now}, the receiver's busy time estimated from its answers (0 before the first). */
    synchronized LinkSink.Load load(long now) {
        if (answeredAt != 0) {
            busyEstimate = Math.max(busyEstimate, busyAnswered + (long) (busyShare * (now - answeredAt)));
        }
        return new LinkSink.Load(sent.sum(), waiting.sum(), rawAcknowledged.sum(), busyEstimate, queued.sum());
    }
}
