package io.mover.plugins.local;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.Charset;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The downcalls of {@link NativeListing}, bound once. Each takes the segment where it leaves {@code errno}
 * first; none allocates: the listing passes its own memory, kept from one folder to the next.
 *
 * @param linux for the exceptions the JDK would throw ({@link LinuxCalls#error})
 * @param oDirectory {@code O_DIRECTORY}, whose value differs between architectures
 * @param charset how the JDK decodes names ({@code sun.jnu.encoding}), so both listings name a file alike
 */
record ListingCalls(LinuxCalls linux, MethodHandle openat, MethodHandle close, MethodHandle getdents, MethodHandle statx,
        VarHandle errno, long errnoSize, int oDirectory, Charset charset) {
    /** {@code __O_TMPFILE}, the same on every architecture: {@link LinuxCalls#oTmpfile} without it is {@code O_DIRECTORY}. */
    private static final int O_TMPFILE_ONLY = 020000000;

    /** Empty where a call is missing (glibc before 2.30 has no {@code getdents64}) or native access is refused. */
    static Optional<ListingCalls> load(LinuxCalls linux) {
        try {
            Linker linker = Linker.nativeLinker();
            Linker.Option errnoOption = Linker.Option.captureCallState("errno");
            MemoryLayout state = Linker.Option.captureStateLayout();
            MethodHandle openat = linker.downcallHandle(linker.defaultLookup().find("openat").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), errnoOption, Linker.Option.firstVariadicArg(3));
            MethodHandle close = linker.downcallHandle(linker.defaultLookup().find("close").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT), errnoOption);
            MethodHandle getdents = linker.downcallHandle(linker.defaultLookup().find("getdents64").orElseThrow(),
                    FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errnoOption);
            MethodHandle statx = linker.downcallHandle(linker.defaultLookup().find("statx").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS), errnoOption);
            VarHandle errno = state.varHandle(MemoryLayout.PathElement.groupElement("errno"));
            Charset charset = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
            return Optional.of(new ListingCalls(linux, openat, close, getdents, statx, errno, state.byteSize(), linux.oTmpfile & ~O_TMPFILE_ONLY, charset));
        }
        catch (RuntimeException | Error e) {
            // the JDK's listing does the work
            return Optional.empty();
        }
    }
}
