package io.mover.plugins.azurefiles;

import java.time.Duration;
import java.util.List;

import com.azure.storage.file.share.models.ShareFileItem;

/**
 * The first page of the root's listing and where its next page starts, from the open's check ({@link AzureShare}):
 * taken once by the root's first listing, only while fresh and only if nothing was written through the share since
 * ({@link Writes} drops it), so that a listing taken later sees what changed.
 */
record RootPage(List<ShareFileItem> items, String continuation, long takenNanos) {
    /** How long the check's page stays good for the root's first listing. */
    static final Duration FRESH = Duration.ofSeconds(30);

    boolean fresh(long nowNanos) {
        return nowNanos - takenNanos < FRESH.toNanos();
    }
}
