package io.mover.plugins.azurefiles;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import io.mover.spi.Entry;
import io.mover.spi.RelativePath;

/**
 * A tree listed with several directories in flight at once (each directory one listing call per page), so
 * that a tree of many small directories is not paced by one round trip at a time. Entries stream out as they
 * come; closing the stream stops the crawl.
 */
final class Crawl {
    private static final Object DONE = new Object();

    private Crawl() {}

    static Stream<Entry> tree(AzureShare share, RelativePath root, Predicate<String> hide) {
        LinkedBlockingQueue<Object> out = new LinkedBlockingQueue<>(10_000);
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        Semaphore slots = new Semaphore(share.listingThreads);
        AtomicInteger pending = new AtomicInteger(1);
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        class Lister {
            void submit(RelativePath directory) {
                pool.execute(() -> {
                    slots.acquireUninterruptibly();
                    try (Stream<Entry> entries = share.list(directory, hide)) {
                        for (Entry entry : (Iterable<Entry>) entries::iterator) {
                            if (entry.isDirectory()) {
                                pending.incrementAndGet();
                                submit(entry.path());
                            }
                            out.put(entry);
                        }
                    }
                    catch (RuntimeException e) {
                        failure.compareAndSet(null, e);
                    }
                    catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    finally {
                        slots.release();
                        if (pending.decrementAndGet() == 0) {
                            out.offer(DONE);
                        }
                    }
                });
            }
        }
        new Lister().submit(root);
        Iterator<Entry> iterator = new Iterator<>() {
            private Object next;

            @Override
            public boolean hasNext() {
                while (next == null) {
                    try {
                        next = out.poll(100, TimeUnit.MILLISECONDS);
                    }
                    catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new io.mover.spi.MoverException(io.mover.spi.ErrorCode.CANCELLED, "listing of " + share.where(root) + " interrupted");
                    }
                    if (failure.get() != null) {
                        throw failure.get();
                    }
                }
                return next != DONE;
            }

            @Override
            public Entry next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Entry entry = (Entry) next;
                next = null;
                return entry;
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator, Spliterator.NONNULL), false).onClose(pool::shutdownNow);
    }
}
