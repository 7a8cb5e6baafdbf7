package io.mover.core.codec;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Times a compression by the CPU its thread spent, not the wall clock: on cores shared by the workers, the JIT and (on
 * the same machine) the receiver, a wall-clock taste counts the time its thread waited for a core, and read zstd:1 at
 * half its speed for the first seconds of a job (docs/benchmarks.md, 1 Gbit mixed). {@code ThreadMXBean} answers -1 on
 * a virtual thread, so this asks the kernel for the carrier's CPU time ({@code clock_gettime(CLOCK_THREAD_CPUTIME_ID)});
 * a compression never unmounts its virtual thread, so both readings are the same carrier's. Where that call is not
 * available (not Linux, native access refused) or the readings make no sense, the wall clock's figure is kept.
 */
final class CpuClock {
    private static final int CLOCK_THREAD_CPUTIME_ID = 3;
    private static final MethodHandle CLOCK_GETTIME = clockGettime();

    private CpuClock() {}

    private static MethodHandle clockGettime() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return null; // the clock's id is Linux's (macOS numbers its thread clock 16)
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("clock_gettime")
                    .map(address -> linker.downcallHandle(address, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                            ValueLayout.ADDRESS), Linker.Option.critical(true)))
                    .orElse(null);
        }
        catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** A reading: this thread's CPU nanoseconds and the wall clock's, taken together. */
    record Reading(long cpu, long wall) {}

    static Reading now() {
        return new Reading(cpuNanos(), System.nanoTime());
    }

    /** Nanoseconds of CPU since {@code began}; the wall clock's when the CPU clock cannot say (never more than the wall's). */
    static long since(Reading began) {
        long wall = System.nanoTime() - began.wall();
        long cpu = began.cpu() < 0 ? -1 : cpuNanos() - began.cpu();
        return cpu > 0 && cpu <= wall ? cpu : wall;
    }

    private static long cpuNanos() {
        if (CLOCK_GETTIME == null) {
            return -1;
        }
        long[] timespec = new long[2];
        try {
            int result = (int) CLOCK_GETTIME.invokeExact(CLOCK_THREAD_CPUTIME_ID, MemorySegment.ofArray(timespec));
            return result == 0 ? timespec[0] * 1_000_000_000L + timespec[1] : -1;
        }
        catch (Throwable e) {
            return -1;
        }
    }
}
