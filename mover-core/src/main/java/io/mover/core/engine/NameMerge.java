package io.mover.core.engine;

import java.util.Iterator;

import io.mover.spi.Entry;

/** Two name-sorted iterators merged: each step gives the source's and the destination's entry of one name, either null. */
final class NameMerge {
    private final Iterator<Entry> source;
    private final Iterator<Entry> destination;
    private Entry nextSource;
    private Entry nextDestination;

    NameMerge(Iterator<Entry> source, Iterator<Entry> destination) {
        this.source = source;
        this.destination = destination;
        this.nextSource = source.hasNext() ? source.next() : null;
        this.nextDestination = destination.hasNext() ? destination.next() : null;
    }

    boolean hasNext() {
        return nextSource != null || nextDestination != null;
    }

    Entry[] next() {
        int order = nextSource == null ? 1 : nextDestination == null ? -1
                : nextSource.path().name().compareTo(nextDestination.path().name());
        Entry s = order <= 0 ? nextSource : null;
        Entry d = order >= 0 ? nextDestination : null;
        if (s != null) {
            nextSource = source.hasNext() ? source.next() : null;
        }
        if (d != null) {
            nextDestination = destination.hasNext() ? destination.next() : null;
        }
        return new Entry[] {s, d};
    }
}
