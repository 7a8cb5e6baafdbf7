package io.mover.plugins.azurefiles;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * The requests of one reader or writer, which {@link #abort()} (a cancelled job, from another thread) ends at once:
 * it interrupts the threads inside a call, so a request waiting out throttling (a Retry-After, the back-off, a turn
 * of the adaptive concurrency) stops waiting, and every call after it fails {@link ErrorCode#CANCELLED}.
 */
final class AbortableCalls {
    private final Set<Thread> inside = ConcurrentHashMap.newKeySet();
    private final String what;
    private volatile boolean aborted;

    /** {@code what} names the calls in the error: "the write of acct/share/f.bin". */
    AbortableCalls(String what) {
        this.what = what;
    }

    <T> T call(Supplier<T> action) {
        Thread current = Thread.currentThread();
        inside.add(current);
        try {
            if (aborted) {
                throw cancelled();
            }
            return action.get();
        }
        catch (RuntimeException e) {
            throw aborted ? cancelled() : e;
        }
        finally {
            inside.remove(current);
            if (aborted) {
                Thread.interrupted();   // the interrupt was abort's, not the engine's: the thread goes on to clean up
            }
        }
    }

    void abort() {
        aborted = true;
        inside.forEach(Thread::interrupt);
    }

    boolean aborted() {
        return aborted;
    }

    MoverException cancelled() {
        return new MoverException(ErrorCode.CANCELLED, what + " was aborted");
    }
}
