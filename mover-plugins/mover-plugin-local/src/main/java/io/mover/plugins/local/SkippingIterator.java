package io.mover.plugins.local;

import java.util.Iterator;
import java.util.NoSuchElementException;

import io.mover.spi.Entry;

/**
 * The iterator both listings share ({@link LocalListing}, {@link NativeListing}): entries read one at a time as
 * the engine pulls them, some left out (a name filtered away, a file gone before its attributes were read).
 */
abstract class SkippingIterator implements Iterator<Entry> {
    private Entry next;

    /** Whether another entry remains to be read; false for good once it has said so. */
    abstract boolean more();

    /** The next entry, or null when it is left out; called only after {@link #more()} said true. */
    abstract Entry read();

    @Override
    public final boolean hasNext() {
        // bounded by the entries underneath: each turn consumes one
        while (next == null && more()) {
            next = read();
        }
        return next != null;
    }

    @Override
    public final Entry next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Entry result = next;
        next = null;
        return result;
    }
}
