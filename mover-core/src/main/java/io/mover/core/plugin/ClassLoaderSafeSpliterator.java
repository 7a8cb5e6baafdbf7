package io.mover.core.plugin;

import java.util.Comparator;
import java.util.Spliterator;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The elements of a plugin's lazy stream (a directory listing), each produced with the plugin's class
 * loader as the context class loader: the plugin's code runs when the engine pulls, not when
 * {@code list} returns.
 */
final class ClassLoaderSafeSpliterator<T> implements Spliterator<T> {
    private final Spliterator<T> delegate;
    private final ClassLoader loader;

    ClassLoaderSafeSpliterator(Spliterator<T> delegate, ClassLoader loader) {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.loader = requireNonNull(loader, "loader is null");
    }

    /** Called once per element (a listing of 100,000 entries): no lambda, and no switch when the loader is already the context's. */
    @Override
    public boolean tryAdvance(Consumer<? super T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        if (previous == loader) {
            return delegate.tryAdvance(action);
        }
        thread.setContextClassLoader(loader);
        try {
            return delegate.tryAdvance(action);
        }
        finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Override
    public Spliterator<T> trySplit() {
        Spliterator<T> split = ClassLoaderSafe.call(loader, delegate::trySplit);
        return split == null ? null : new ClassLoaderSafeSpliterator<>(split, loader);
    }

    @Override
    public long estimateSize() {
        return delegate.estimateSize();
    }

    @Override
    public int characteristics() {
        return delegate.characteristics();
    }

    @Override
    public Comparator<? super T> getComparator() {
        return delegate.getComparator();
    }
}
