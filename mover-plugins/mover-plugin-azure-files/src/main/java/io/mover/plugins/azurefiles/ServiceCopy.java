package io.mover.plugins.azurefiles;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import com.azure.storage.file.share.ShareFileClient;
import com.azure.storage.file.share.models.CopyStatusType;
import com.azure.storage.file.share.models.CopyableFileSmbPropertiesList;
import com.azure.storage.file.share.models.PermissionCopyModeType;
import com.azure.storage.file.share.options.ShareFileCopyOptions;
import com.azure.storage.file.share.sas.ShareFileSasPermission;
import com.azure.storage.file.share.sas.ShareServiceSasSignatureValues;

import io.mover.spi.RelativePath;

/**
 * The parts of Copy File share to share: the destination service reads the source itself, through a URL that
 * carries a SAS, so the bytes never pass through mover.
 */
final class ServiceCopy {
    private ServiceCopy() {}

    /** The source file's URL with a SAS the destination service can read it with (never logged: it is a credential). */
    static String sourceUrl(AzureShare from, RelativePath path) {
        return from.fileUrl(path) + "?" + readSas(from, path);
    }

    /** The source's own SAS, or a one-hour read-only SAS for this file signed with the source's account key. */
    private static String readSas(AzureShare from, RelativePath path) {
        if (from.location.sas().isPresent()) {
            return from.location.sas().get().reveal();
        }
        return from.file(path).generateSas(new ShareServiceSasSignatureValues(OffsetDateTime.now(ZoneOffset.UTC).plusHours(1),
                new ShareFileSasPermission().setReadPermission(true)));
    }

    /** The last-write time always (the compare's mtime); attributes, creation and change times, and the permission when asked. */
    static ShareFileCopyOptions options(boolean preserveSmb, boolean preservePermissions) {
        return new ShareFileCopyOptions().setIgnoreReadOnly(true)
                .setSmbPropertiesToCopy(new CopyableFileSmbPropertiesList().setLastWrittenOn(true).setFileAttributes(preserveSmb)
                        .setCreatedOn(preserveSmb).setChangedOn(preserveSmb))
                .setPermissionCopyModeType(preservePermissions ? PermissionCopyModeType.SOURCE : PermissionCopyModeType.OVERRIDE);
    }

    /** A copy that failed, timed out or was interrupted may still run on the service: stop it, or the temporary cannot be deleted. */
    static void abortPending(ShareFileClient client) {
        try {
            var properties = client.getProperties();
            if (properties.getCopyStatus() == CopyStatusType.PENDING && properties.getCopyId() != null) {
                client.abortCopy(properties.getCopyId());
            }
        }
        catch (RuntimeException ignored) {
            // best effort: the delete that follows fails loudly enough if the copy still runs
        }
    }
}
