package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.Path;

import static java.util.Objects.requireNonNull;

/**
 * Names the unnamed ({@code O_TMPFILE}) files of {@link LocalKernelCopy}: by the descriptor itself
 * ({@code linkat(fd, "", dir, name, AT_EMPTY_PATH)}), which Linux 6.10 on allows the process that opened the file
 * (before, only with {@code CAP_DAC_READ_SEARCH}), or through {@code /proc/self/fd/N}, whose lookup in procfs
 * cost 2 to 3 us of CPU more a file. Thread-safe.
 */
final class UnnamedLinks {
    private final LinuxCalls calls;
    /** Cleared, for good, where the descriptor form is refused and the {@code /proc/self/fd} form works. */
    private volatile boolean byDescriptor;

    /** {@code byDescriptor}: false names every file through {@code /proc/self/fd} from the start (tests use it). */
    UnnamedLinks(LinuxCalls calls, boolean byDescriptor) {
        this.calls = requireNonNull(calls, "calls is null");
        this.byDescriptor = byDescriptor;
    }

    /** Whether files are (still) named by their descriptor. */
    boolean byDescriptor() {
        return byDescriptor;
    }

    /**
     * {@code linkat} by the descriptor while the kernel allows it; on its refusal (ENOENT before Linux 6.10
     * without the capability, EPERM from a filter) the {@code /proc/self/fd} form, and when that works, only it
     * from then on. A refusal for another cause (the folder removed) fails both and changes nothing.
     */
    void link(NativeScratch scratch, int out, int folder, byte[] name, Path target) throws IOException {
        if (byDescriptor) {
            try {
                calls.link(scratch, out, folder, name, true, target);
                return;
            }
            catch (NativeError e) {
                if (e.code() != LinuxCalls.ENOENT && e.code() != LinuxCalls.EPERM) {
                    throw e;
                }
            }
            calls.link(scratch, out, folder, name, false, target);
            byDescriptor = false;
            return;
        }
        calls.link(scratch, out, folder, name, false, target);
    }
}
