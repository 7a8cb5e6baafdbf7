package com.example.mover.checksums;

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

/**
 * JDK I/O exceptions to categorised, one-line {@link MoverException}s: the category decides whether
 * mover retries (IO_ERROR), fails the file (NOT_FOUND, a USER code) or stops the job (NO_SPACE).
 */
final class IoFailures {
    private IoFailures() {}

    static MoverException map(IOException e, String action, Path path) {
        String reason = e instanceof FileSystemException fs && fs.getReason() != null ? fs.getReason() : String.valueOf(e.getMessage());
        String lower = reason.toLowerCase(Locale.ROOT);
        String what = "cannot " + action + " " + path + ": ";
        if (lower.contains("no space left") || lower.contains("quota exceeded")) {
            return new MoverException(ErrorCode.NO_SPACE, what + "the store is full", e);
        }
        if (lower.equals("not a directory") || e instanceof NotDirectoryException) {
            return new MoverException(ErrorCode.NOT_A_DIRECTORY, what + "a file is in the way", e);
        }
        return switch (e) {
            case NoSuchFileException ignored -> new MoverException(ErrorCode.NOT_FOUND, what + "no such file or directory", e);
            case AccessDeniedException ignored -> new MoverException(ErrorCode.PERMISSION_DENIED, what + "permission denied", e);
            case FileAlreadyExistsException ignored -> new MoverException(ErrorCode.ALREADY_EXISTS, what + "already exists", e);
            case DirectoryNotEmptyException ignored -> new MoverException(ErrorCode.ALREADY_EXISTS, what + "the directory is not empty", e);
            default -> new MoverException(ErrorCode.IO_ERROR, what + reason.replace('\n', ' '), e);
        };
    }
}
