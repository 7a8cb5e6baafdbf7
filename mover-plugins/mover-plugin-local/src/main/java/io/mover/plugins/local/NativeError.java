package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A failed {@link LinuxCalls} call: its {@code errno}, for the callers that fall back on some of them, and the
 * exception the JDK throws for the same {@code errno}, which {@link IoErrors} maps as it maps the JDK's own.
 */
final class NativeError extends IOException {
    private final int code;

    NativeError(int code, String reason, String action, Path path) {
        super("cannot " + action + " " + path + ": " + reason, jdkException(code, reason, path));
        this.code = code;
    }

    int code() {
        return code;
    }

    IOException jdkException() {
        return (IOException) getCause();
    }

    private static IOException jdkException(int code, String reason, Path path) {
        return switch (code) {
            case LinuxCalls.ENOENT -> new NoSuchFileException(path.toString());
            case LinuxCalls.EEXIST -> new FileAlreadyExistsException(path.toString());
            // EPERM, EACCES
            case 1, 13 -> new AccessDeniedException(path.toString(), null, reason);
            default -> new FileSystemException(path.toString(), null, reason);
        };
    }
}
