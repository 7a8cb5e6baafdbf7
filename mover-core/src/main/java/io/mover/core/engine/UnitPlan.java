package io.mover.core.engine;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.mover.spi.Entry;
import io.mover.spi.EntryType;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;

/**
 * What a {@link TransferRun} moves when it runs one unit of a durable job instead of crawling: the
 * unit's manifest, entry by entry, through the same per-file path as a crawl.
 */
final class UnitPlan {
    private final TransferRun run;
    private final TransferRun.Manifest manifest;

    UnitPlan(TransferRun run, TransferRun.Manifest manifest) {
        this.run = run;
        this.manifest = manifest;
    }

    /**
     * The unit's entries in order: each distinct folder is created once (and cleared of temporaries a
     * crashed attempt left), each file scheduled as a crawled one would be. Folder times are not set here:
     * other units may still write into the folder.
     */
    void run() {
        Entry root = run.job().sourceRoot();
        DirectoryNode parent = DirectoryNode.root(root, node -> {});
        Set<RelativePath> folders = new HashSet<>();
        Map<RelativePath, MoverException> failedFolders = new HashMap<>();
        try {
            for (Entry entry : manifest.entries()) {
                if (run.stopped() || manifest.stopStarting().getAsBoolean()) {
                    run.cutShort();
                    return;
                }
                if (entry.isDirectory()) {
                    prepareFolder(entry.path(), folders, failedFolders).ifPresent(e -> run.outcomes().entryFailed(entry.path(), e));
                    continue;
                }
                RelativePath target = root.isFile() ? run.job().rootTarget() : entry.path();
                Optional<MoverException> folderFailed = root.isFile() ? Optional.empty()
                        : prepareFolder(entry.path().parent(), folders, failedFolders);
                if (folderFailed.isPresent()) {
                    // each file is accounted for: it fails with its folder
                    run.outcomes().scanned(entry);
                    run.outcomes().fileFailed(entry.path(), folderFailed.get(), 1);
                    continue;
                }
                run.outcomes().scanned(entry);
                if (entry.type() == EntryType.SYMLINK) {
                    run.symlink(entry);
                }
                else {
                    run.schedule(new FileCopy(run, entry, target, parent));
                }
            }
        }
        finally {
            parent.closed();
        }
    }

    /** Creates a folder of the unit once; the error when it cannot be created (remembered for its other files). */
    private Optional<MoverException> prepareFolder(RelativePath folder, Set<RelativePath> done, Map<RelativePath, MoverException> failed) {
        if (failed.containsKey(folder)) {
            return Optional.of(failed.get(folder));
        }
        if (run.job().sink().isEmpty() || done.contains(folder)) {
            return Optional.empty();
        }
        try {
            long start = System.nanoTime();
            if (run.sink().mkdirs(folder)) {
                run.counters().directoriesCreated.increment();   // new: no temporaries of an earlier run to look for
            }
            else {
                run.sink().removeStaleTemporaries(folder);
            }
            run.meter(Stage.ENUMERATE).busy(start, 0);
            done.add(folder);
            return Optional.empty();
        }
        catch (MoverException e) {
            failed.put(folder, e);
            return Optional.of(e);
        }
    }
}
