package io.mover.core.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.RelativePath;

import static org.assertj.core.api.Assertions.assertThat;

/** A sync's listings: ahead on the pool, or (a folder read from the catalog) on the walk's thread when it gets there. */
@Timeout(30)
class FolderListingsTest {
    @TempDir
    Path scratch;

    private final List<String> threads = new CopyOnWriteArrayList<>();

    private final Function<RelativePath, Stream<Entry>> lister = folder -> {
        threads.add(Thread.currentThread().getName());
        return Stream.of(new Entry(folder.resolve("b"), EntryType.FILE, 1, java.time.Instant.EPOCH, io.mover.spi.Attributes.NONE),
                new Entry(folder.resolve("a"), EntryType.FILE, 2, java.time.Instant.EPOCH, io.mover.spi.Attributes.NONE));
    };

    private FolderListings listings() {
        return new FolderListings(2, 1000, scratch, new StageMeter(), new StageMeter(), (folder, error) -> {});
    }

    @Test
    void aDeferredListingRunsOnTheThreadThatAwaitsIt() {
        try (FolderListings listings = listings()) {
            Future<SortedListing> deferred = listings.deferred(lister, RelativePath.of("d"), false);
            assertThat(threads).as("nothing listed before the walk gets there").isEmpty();

            Optional<SortedListing> listing = listings.await(RelativePath.of("d"), deferred);

            assertThat(threads).containsExactly(Thread.currentThread().getName());
            assertThat(listing.orElseThrow().size()).isEqualTo(2);
            List<String> names = new java.util.ArrayList<>();
            listing.get().iterator().forEachRemaining(entry -> names.add(entry.path().name()));
            assertThat(names).as("sorted, as a pooled listing is").containsExactly("a", "b");
        }
    }

    @Test
    void aPooledListingRunsAheadOnTheListersAndADeferredOneLeftBehindNeverRuns() throws Exception {
        try (FolderListings listings = listings()) {
            Future<SortedListing> pooled = listings.list(lister, RelativePath.of("p"), true);
            assertThat(listings.await(RelativePath.of("p"), pooled)).isPresent();
            assertThat(threads).singleElement().asString().startsWith("mover-sync-list-");

            FolderListings.closeLater(listings.deferred(lister, RelativePath.of("left"), false));
            assertThat(threads).as("a stopped walk's deferred listing is dropped, not made").hasSize(1);
        }
    }
}
