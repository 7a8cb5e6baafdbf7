package io.mover.plugins.azurefiles;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.azure.core.exception.HttpResponseException;
import com.azure.storage.file.share.models.ShareStorageException;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * Maps the File service's errors to mover's codes, in one place. Messages name the share and path and say what
 * to do; they never carry a URL (which could hold a SAS) or the SDK's message.
 */
final class AzureErrors {
    private AzureErrors() {}

    /**
     * @param what the operation, for the message ("write a range of")
     * @param permission the SAS permission letter the operation needs, named when the SAS lacks it
     */
    static MoverException map(RuntimeException failure, String what, String where, char permission) {
        // the SDK wraps what its pipeline policies throw: the throttle's CANCELLED (an interrupted wait) among them
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < 8; depth++, cause = cause.getCause()) {
            if (cause instanceof MoverException mover) {
                return mover;
            }
            if (cause instanceof InterruptedException || cause instanceof java.nio.channels.ClosedByInterruptException) {
                return new MoverException(ErrorCode.CANCELLED, "could not " + what + " " + where + ": interrupted", failure);
            }
        }
        if (Thread.currentThread().isInterrupted()) {
            return new MoverException(ErrorCode.CANCELLED, "could not " + what + " " + where + ": interrupted", failure);
        }
        if (failure instanceof UncheckedIOException || failure.getCause() instanceof IOException) {
            return new MoverException(ErrorCode.CONNECTION_LOST, "could not " + what + " " + where + ": the connection to Azure Files failed (" + failure.getClass().getSimpleName() + ")", failure);
        }
        if (!(failure instanceof HttpResponseException http)) {
            return new MoverException(ErrorCode.IO_ERROR, "could not " + what + " " + where + ": " + failure.getClass().getSimpleName(), failure);
        }
        int status = http.getResponse().getStatusCode();
        String code = failure instanceof ShareStorageException share && share.getErrorCode() != null ? share.getErrorCode().toString()
                : String.valueOf(http.getResponse().getHeaderValue("x-ms-error-code"));
        String prefix = "could not " + what + " " + where + ": ";
        return switch (code) {
            case "ShareNotFound" -> new MoverException(ErrorCode.NOT_FOUND, prefix + "the share does not exist; create it or correct the share name", failure);
            case "ParentNotFound", "ResourceNotFound" -> new MoverException(ErrorCode.NOT_FOUND, prefix + "it does not exist", failure);
            case "AuthenticationFailed" -> new MoverException(ErrorCode.AUTHENTICATION_FAILED, prefix
                    + (String.valueOf(http.getMessage()).contains("time frame") ? "the SAS has expired or is not yet valid; issue a new one"
                            : "the service refused the credentials; check the account key or SAS"), failure);
            case "AuthorizationPermissionMismatch" -> new MoverException(ErrorCode.PERMISSION_DENIED, prefix + "the SAS lacks the '" + permission
                    + "' (" + permissionName(permission) + ") permission; issue a SAS that grants it", failure);
            case "AuthorizationFailure", "AuthorizationResourceTypeMismatch", "AuthorizationServiceMismatch", "AuthorizationProtocolMismatch",
                    "AuthorizationSourceIPMismatch", "CannotVerifyCopySource", "InsufficientAccountPermissions" ->
                    new MoverException(ErrorCode.PERMISSION_DENIED, prefix + "not authorized (" + code + "); check the SAS's services, resource types, IP range and protocol", failure);
            case "InvalidResourceName" -> new MoverException(ErrorCode.INVALID_PATH, prefix + "Azure Files forbids this name (no \" \\ / : | < > * ? or control characters, no trailing dot)", failure);
            case "ResourceAlreadyExists", "ShareAlreadyExists", "ResourceTypeMismatch" -> new MoverException(ErrorCode.ALREADY_EXISTS, prefix + "something of another type is in the way (" + code + ")", failure);
            case "DirectoryNotEmpty" -> new MoverException(ErrorCode.INVALID_ARGUMENT, prefix + "the directory is not empty", failure);
            case "ShareDisabled", "ShareBeingDeleted" -> new MoverException(ErrorCode.NOT_FOUND, prefix + "the share is not available (" + code + ")", failure);
            default -> status == 503 || status == 429 ? new MoverException(ErrorCode.THROTTLED, prefix + "Azure Files kept throttling (" + code + ") after backing off", failure)
                    : status == 403 ? new MoverException(ErrorCode.PERMISSION_DENIED, prefix + "access denied (" + code + ")", failure)
                    : status >= 500 ? new MoverException(ErrorCode.IO_ERROR, prefix + "the service failed (" + status + " " + code + ")", failure)
                    : new MoverException(ErrorCode.INVALID_ARGUMENT, prefix + "the service refused the request (" + status + " " + code + ")", failure);
        };
    }

    static String permissionName(char permission) {
        return switch (permission) {
            case 'r' -> "read";
            case 'w' -> "write";
            case 'c' -> "create";
            case 'd' -> "delete";
            case 'l' -> "list";
            default -> String.valueOf(permission);
        };
    }

    static boolean isNotFound(RuntimeException failure) {
        return failure instanceof HttpResponseException http && http.getResponse() != null && http.getResponse().getStatusCode() == 404;
    }

    static String code(RuntimeException failure) {
        return failure instanceof ShareStorageException share && share.getErrorCode() != null ? share.getErrorCode().toString() : "";
    }
}
