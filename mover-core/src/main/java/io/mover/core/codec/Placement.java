package io.mover.core.codec;

import io.mover.spi.LinkSink;

/** Where a link's far end runs, which decides {@link AutoChoice}'s model. */
enum Placement {
    /** Another machine: the link's rate, this end's CPU and the far end's measured rate. */
    ELSEWHERE,
    /** This host over loopback ({@link LinkSink#sameHost()}): the shared cores alone ({@link SharedCores}). */
    SAME_HOST,
    /** This machine across a link of its own ({@link LinkSink#sameMachine()}): the shared cores, and the link where it is clearly the slower. */
    SAME_MACHINE;

    /** Asks the link (on {@link #SAME_MACHINE}, a round trip to the far end). */
    static Placement of(LinkSink link) {
        return link.sameHost() ? SAME_HOST : link.sameMachine() ? SAME_MACHINE : ELSEWHERE;
    }
}
