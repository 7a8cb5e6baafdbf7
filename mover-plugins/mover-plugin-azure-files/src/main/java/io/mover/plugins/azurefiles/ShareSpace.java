package io.mover.plugins.azurefiles;

import java.util.OptionalLong;

import com.azure.core.exception.HttpResponseException;

/**
 * The bytes new files may still take in a share: its quota less its usage, never negative. A share's quota holds
 * for every folder in it, so the folder asked about does not change the figure.
 * <p>Two requests, as the REST reference describes them: Get Share Properties ({@code GET ?restype=share}) returns
 * {@code x-ms-share-quota}, the share's maximum size in GiB (learn.microsoft.com/rest/api/storageservices/get-share-properties),
 * and Get Share Stats ({@code GET ?restype=share&comp=stats}) returns {@code <ShareStats><ShareUsageBytes>}
 * (learn.microsoft.com/rest/api/storageservices/get-share-stats), "the approximate size of the data stored in
 * bytes", which "may not include all recently created or recently resized files": the figure is an estimate, good
 * for refusing what clearly cannot fit.
 * <p>Both are share-level operations: a SAS that does not grant them (an account SAS without the container resource
 * type or without 'r', a SAS for one file) is answered 403 (AuthorizationResourceTypeMismatch,
 * AuthorizationPermissionMismatch, or AuthenticationFailed for a signature over another resource). That means this
 * credential cannot tell, not that the share is broken, so it is empty rather than an error.
 */
final class ShareSpace {
    private static final long GIB = 1L << 30;

    private ShareSpace() {}

    static OptionalLong usable(AzureShare share) {
        try {
            Integer quotaGiB = share.client.getProperties().getQuota();
            if (quotaGiB == null) {
                return OptionalLong.empty();
            }
            long used = share.client.getStatistics().getShareUsageInBytes();
            return OptionalLong.of(Math.max(0, quotaGiB * GIB - used));
        }
        catch (RuntimeException e) {
            if (e instanceof HttpResponseException http && http.getResponse() != null && http.getResponse().getStatusCode() == 403) {
                share.context.logger().log(System.Logger.Level.INFO, "the free space of Azure Files share " + share.location.display()
                        + " is not known: the credentials may not read the share's properties (403 "
                        + http.getResponse().getHeaderValue("x-ms-error-code") + ")");
                return OptionalLong.empty();
            }
            throw AzureErrors.map(e, "read the quota and usage of", share.location.display(), 'r');
        }
    }
}
