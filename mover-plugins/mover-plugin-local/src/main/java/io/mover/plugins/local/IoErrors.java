package io.mover.plugins.local;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/** Turns the JDK's I/O exceptions into categorised, one-line {@link MoverException}s. */
final class IoErrors {
    private IoErrors() {}

    static MoverException map(IOException failure, String action, Path path) {
        // a failed system call made through FFM carries the exception the JDK would have thrown
        IOException e = failure instanceof NativeError nativeError ? nativeError.jdkException() : failure;
        String reason = reason(e);
        String lower = reason.toLowerCase(Locale.ROOT);
        String what = "cannot " + action + " " + path + ": ";
        // the errno, where a native call gave one, before the text (strerror is translated under other locales)
        int code = failure instanceof NativeError nativeError ? nativeError.code() : 0;
        if (code == LinuxCalls.ENOSPC || code == LinuxCalls.EDQUOT || code == LinuxCalls.EFBIG || lower.contains("no space left") || lower.contains("quota exceeded") || lower.contains("file too large")) {
            return new MoverException(ErrorCode.NO_SPACE, what + reason + "; free space on the destination or choose another one", e);
        }
        if (code == LinuxCalls.ENAMETOOLONG || lower.contains("name too long")) {
            return new MoverException(ErrorCode.INVALID_PATH, what + "the name is too long for this file system", e);
        }
        if (code == LinuxCalls.ENOTDIR || lower.equals("not a directory")) {
            // ENOTDIR arrives as a plain FileSystemException, not a NotDirectoryException
            return new MoverException(ErrorCode.NOT_A_DIRECTORY, what + "a file is in the way where a directory is needed", e);
        }
        if (code == LinuxCalls.EROFS || lower.contains("read-only file system")) {
            return new MoverException(ErrorCode.PERMISSION_DENIED, what + "the file system is read-only", e);
        }
        return switch (e) {
            case NoSuchFileException ignored -> new MoverException(ErrorCode.NOT_FOUND, what + "no such file or directory", e);
            case AccessDeniedException ignored -> new MoverException(ErrorCode.PERMISSION_DENIED, what + "permission denied; check the owner and mode", e);
            case NotDirectoryException ignored -> new MoverException(ErrorCode.NOT_A_DIRECTORY, what + "not a directory", e);
            case FileAlreadyExistsException ignored -> new MoverException(ErrorCode.ALREADY_EXISTS, what + "already exists", e);
            case DirectoryNotEmptyException ignored -> new MoverException(ErrorCode.ALREADY_EXISTS, what + "the directory is not empty", e);
            default -> new MoverException(ErrorCode.IO_ERROR, what + reason, e);
        };
    }

    private static String reason(IOException e) {
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message.replace('\n', ' ');
    }
}
