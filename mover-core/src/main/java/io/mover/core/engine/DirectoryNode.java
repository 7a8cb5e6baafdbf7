package io.mover.core.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.mover.spi.Entry;

import static java.util.Objects.requireNonNull;

/**
 * Counts what is still open inside one directory (its own listing, its files, its subdirectories), so
 * the directory's modification time is set after its contents are written: writing a file into a
 * directory changes the directory's time, so setting it earlier would not stick.
 */
final class DirectoryNode {
    private final Entry source;
    private final DirectoryNode parent;
    private final Consumer<DirectoryNode> onComplete;
    /** Starts at 1 for the listing, so files finishing early cannot complete a directory still being listed. */
    private final AtomicInteger open = new AtomicInteger(1);

    private DirectoryNode(Entry source, DirectoryNode parent, Consumer<DirectoryNode> onComplete) {
        this.source = requireNonNull(source, "source is null");
        this.parent = parent;
        this.onComplete = requireNonNull(onComplete, "onComplete is null");
    }

    static DirectoryNode root(Entry source, Consumer<DirectoryNode> onComplete) {
        return new DirectoryNode(source, null, onComplete);
    }

    DirectoryNode child(Entry source) {
        open.incrementAndGet();
        return new DirectoryNode(source, this, onComplete);
    }

    /** One more file in flight inside this directory. */
    void opened() {
        open.incrementAndGet();
    }

    /** The listing, a file, or a subdirectory is finished. */
    void closed() {
        if (open.decrementAndGet() == 0) {
            onComplete.accept(this);
            if (parent != null) {
                parent.closed();
            }
        }
    }

    Entry source() {
        return source;
    }
}
