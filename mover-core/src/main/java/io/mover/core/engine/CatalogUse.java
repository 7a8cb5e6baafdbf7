package io.mover.core.engine;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.stream.Stream;

import io.mover.spi.Entry;
import io.mover.spi.RelativePath;

/**
 * One sync's use of its {@link SyncCatalog}: destination folders read from the catalog when it has them (listed for
 * real otherwise), what the destination will hold recorded as the new generation (not in a dry run, which changes
 * nothing), and at the end the generation committed or every catalog of the pair dropped.
 */
final class CatalogUse {
    private final SyncCatalog catalog;
    /** A catalog of the last successful sync is there and still describes this destination (see {@link #lister}). */
    private boolean existed;
    private boolean recreated;
    private final CatalogRecorder recorder;
    private final LongAdder fromCatalog = new LongAdder();
    private final LongAdder listed = new LongAdder();
    private volatile boolean unaccounted;

    CatalogUse(SyncCatalog catalog, boolean dryRun) {
        this.catalog = catalog;
        this.existed = catalog.exists();
        this.recorder = dryRun ? null : catalog.record();
    }

    /**
     * Lists a destination folder from the catalog, or with {@code real} when the catalog does not have it; the whole
     * destination for real when its root ({@code destinationRoot}, as the sink stats it now) was created after the
     * catalog's sync saw it. Called once, before the walk.
     */
    Function<RelativePath, Stream<Entry>> lister(Function<RelativePath, Stream<Entry>> real, Optional<Entry> destinationRoot) {
        Optional<Instant> created = destinationRoot.flatMap(root -> root.attributes().creationTime());
        if (existed) {
            Optional<Instant> seen = catalog.rootCreated();
            recreated = created.isPresent() && seen.isPresent() && !created.equals(seen);
            existed = !recreated;
            if (existed && recorder != null) {
                recorder.compare(seen);
            }
        }
        if (recorder != null) {
            created.ifPresent(recorder::root);
        }
        if (!existed) {
            return folder -> {
                listed.increment();
                return real.apply(folder);
            };
        }
        return folder -> catalog.list(folder).map(entries -> {
            fromCatalog.increment();
            return entries;
        }).orElseGet(() -> {
            listed.increment();
            return real.apply(folder);
        });
    }

    /** Whether the {@link #lister} reads {@code folder} from the catalog (not listing it for real); after {@link #lister}. */
    boolean holds(RelativePath folder) {
        return existed && catalog.opened().index().folders().containsKey(folder.toString());
    }

    SyncRecorder recorder() {
        return recorder == null ? SyncRecorder.NONE : recorder;
    }

    /** The walk ended: the generation is complete unless a folder could not be listed or the walk stopped. */
    void walked() {
        try {
            if (recorder != null) {
                recorder.finish();
                recorder.close();
            }
        }
        finally {
            catalog.close();
        }
    }

    /**
     * Something planned was not done although the job may succeed (deletes declined, or kept because they changed):
     * the record would be wrong, so it is dropped now (a durable job commits it later, from another place).
     */
    void unaccounted() {
        unaccounted = true;
        if (recorder != null) {
            catalog.invalidate();
        }
    }

    /** For the report: where the destination's listing came from. */
    String note() {
        if (recreated) {
            return "--catalog: the destination's root was created after the catalog was kept (removed and made again, or restored): "
                    + "the destination was listed and a new catalog is kept";
        }
        return existed ? "--catalog: " + fromCatalog.sum() + " destination folders read from the catalog of the last successful sync, "
                + listed.sum() + " listed (changes made there by anything but mover are not seen)"
                : "--catalog: no catalog of this source and destination yet; the destination was listed and the catalog is kept from now on";
    }

    /**
     * Closes what the sync holds open of the catalog (the generation it read, the one it wrote), however the walk ended:
     * one stopped by an exception ({@code --max-delete}) never reached {@link #walked}.
     */
    void release() {
        try {
            if (recorder != null) {
                recorder.close();
            }
        }
        finally {
            catalog.close();
        }
    }

    /** Commits the generation after a successful sync; drops the catalog after any other (a dry run leaves it alone). */
    void end(boolean succeeded) {
        release();
        if (recorder == null) {
            return;
        }
        if (succeeded && !unaccounted) {
            catalog.commit();
        }
        else {
            catalog.invalidate();
        }
    }
}
