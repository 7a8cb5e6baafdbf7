package io.mover.plugins.nfs.client;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * NFSv3 status codes (nfsstat3, RFC 1813 §2.6) mapped, in this one place, to mover's error codes and a
 * sentence an operator can act on. MOUNT v3 statuses share the numbers of the ones they have in common.
 */
public final class NfsStatus {
    public static final int OK = 0;
    public static final int NOENT = 2;
    public static final int EXIST = 17;
    public static final int NOTDIR = 20;
    public static final int ISDIR = 21;
    public static final int NOTEMPTY = 66;
    public static final int STALE = 70;

    private NfsStatus() {
    }

    /** Throws the mapped {@link MoverException} unless {@code status} is OK; {@code what} names the operation and path. */
    public static void check(int status, String what) {
        if (status != OK) {
            throw error(status, what);
        }
    }

    public static MoverException error(int status, String what) {
        return switch (status) {
            case 1, 13 -> new MoverException(ErrorCode.PERMISSION_DENIED, what + ": permission denied by the server; check the export's " +
                    "access rules and the uid/gid options");
            case 30 -> new MoverException(ErrorCode.PERMISSION_DENIED, what + ": the export is read-only");
            case NOENT -> new MoverException(ErrorCode.NOT_FOUND, what + ": no such file or directory");
            case EXIST -> new MoverException(ErrorCode.ALREADY_EXISTS, what + ": already exists");
            case NOTDIR -> new MoverException(ErrorCode.NOT_A_DIRECTORY, what + ": a path component is not a directory");
            case ISDIR -> new MoverException(ErrorCode.ALREADY_EXISTS, what + ": a directory is in the way");
            case NOTEMPTY -> new MoverException(ErrorCode.ALREADY_EXISTS, what + ": the directory is not empty");
            case 27, 28, 69 -> new MoverException(ErrorCode.NO_SPACE, what + ": " + (status == 69 ? "quota exceeded" :
                    status == 27 ? "file too large for the server" : "no space left on the export") + "; free space and run the job again");
            case 63 -> new MoverException(ErrorCode.INVALID_PATH, what + ": the name is too long for the server");
            case STALE, 10001 -> new MoverException(ErrorCode.IO_ERROR, what + ": stale file handle (the file was removed or replaced on " +
                    "the server while mover used it); a retry looks it up again");
            case 10008 -> new MoverException(ErrorCode.THROTTLED, what + ": the server is busy (NFS3ERR_JUKEBOX); retrying later");
            case 22 -> new MoverException(ErrorCode.INVALID_ARGUMENT, what + ": the server refused the arguments (invalid)");
            case 10004 -> new MoverException(ErrorCode.UNSUPPORTED, what + ": not supported by the server");
            case 5, 6, 19, 10006 -> new MoverException(ErrorCode.IO_ERROR, what + ": the server reported an I/O error (status " + status + ")");
            default -> new MoverException(ErrorCode.IO_ERROR, what + ": the server answered NFS status " + status);
        };
    }
}
