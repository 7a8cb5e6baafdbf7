package io.mover.core.engine;

import io.mover.spi.Entry;
import io.mover.spi.RelativePath;

/**
 * What the destination holds once a sync's plan is carried out, folder by folder, as {@link SyncPlanner} walks
 * ({@code --catalog}, {@link SyncCatalog}): {@link #enter} a folder, {@link #entry} for each entry it will hold or lose,
 * {@link #leave} it. Folders nest, depth first. Called on the planner's thread.
 */
interface SyncRecorder {
    SyncRecorder NONE = new SyncRecorder() {
        @Override
        public void enter(RelativePath folder, boolean listed) {}

        @Override
        public void entry(Entry entry, Entry listed) {}

        @Override
        public void leave() {}

        @Override
        public void broken() {}
    };

    /**
     * A folder's walk starts; {@code listed} says whether the destination's listing of it was read (false when the walk
     * takes the destination to have no such folder, as when the source's folder is new there or the root is missing).
     */
    void enter(RelativePath folder, boolean listed);

    /**
     * What the destination holds under a name once the sync is done ({@code entry}, null when the sync deletes it) and
     * what its listing held there ({@code listed}, null for nothing): called for every name either is there for.
     */
    void entry(Entry entry, Entry listed);

    void leave();

    /** A folder could not be listed, or the walk stopped: what was recorded does not describe the destination. */
    void broken();
}
