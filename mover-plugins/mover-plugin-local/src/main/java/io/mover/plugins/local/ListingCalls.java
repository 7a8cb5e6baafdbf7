package io.mover.plugins.local;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * What {@link NativeListing} needs beside {@link LinuxCalls}' own openat, close, statx and errno: {@code getdents64},
 * which takes the segment where it leaves {@code errno} first and allocates nothing (the listing passes its own
 * memory, kept from one folder to the next), and {@code O_DIRECTORY}.
 *
 * @param linux the other calls, and the exceptions the JDK would throw ({@link LinuxCalls#error})
 * @param oDirectory {@code O_DIRECTORY}, whose value differs between architectures
 */
record ListingCalls(LinuxCalls linux, MethodHandle getdents, int oDirectory) {
    /** {@code __O_TMPFILE}, the same on every architecture: {@link LinuxCalls#oTmpfile} without it is {@code O_DIRECTORY}. */
    private static final int O_TMPFILE_ONLY = 020000000;

    /** Empty where {@code getdents64} is missing (glibc before 2.30) or native access is refused. */
    static Optional<ListingCalls> load(LinuxCalls linux) {
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle getdents = linker.downcallHandle(linker.defaultLookup().find("getdents64").orElseThrow(),
                    FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), Linker.Option.captureCallState("errno"));
            return Optional.of(new ListingCalls(linux, getdents, linux.oTmpfile & ~O_TMPFILE_ONLY));
        }
        catch (RuntimeException | Error e) {
            // the JDK's listing does the work
            return Optional.empty();
        }
    }
}
