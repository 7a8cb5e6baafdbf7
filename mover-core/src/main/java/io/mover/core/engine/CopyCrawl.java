package io.mover.core.engine;

import java.util.Iterator;
import java.util.Optional;
import java.util.stream.Stream;

import io.mover.spi.Entry;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.Sink;

/**
 * A copy job's plan: crawls the source depth-first and lazily (a directory's listing is consumed as it
 * streams, never collected), creating each directory at the destination before its files and setting
 * its attributes after them, and hands every file to {@link TransferRun#schedule}. Also the plan of a durable
 * job's unit that is the whole job (a single stream's), which stops starting files when the unit asks it to.
 */
final class CopyCrawl {
    private static final System.Logger LOG = System.getLogger(CopyCrawl.class.getName());

    private final TransferRun run;

    CopyCrawl(TransferRun run) {
        this.run = run;
    }

    void run() {
        Entry root = run.job().sourceRoot();
        if (root.isFile()) {
            DirectoryNode parent = DirectoryNode.root(root, node -> {});
            if (run.filter().includesFile(run.job().rootTarget())) {
                run.outcomes().scanned(root);
                run.schedule(new FileCopy(run, root, run.job().rootTarget(), parent));
            }
            parent.closed();
            return;
        }
        crawl(RelativePath.ROOT, DirectoryNode.root(root, this::directoryComplete));
    }

    /** Creates the directory at the destination, then visits its entries as the listing streams. */
    private void crawl(RelativePath directory, DirectoryNode node) {
        StageMeter enumerate = run.meter(Stage.ENUMERATE);
        try {
            if (run.stopped() || run.stopStarting()) {
                return;
            }
            Optional<Sink> sink = run.job().sink();
            if (sink.isPresent()) {
                long start = System.nanoTime();
                // a directory created now holds no temporaries of an earlier run: listing it anyway cost a request per
                // folder on the crawler's thread, and on a share whose bandwidth the files in flight fill, that listing's
                // response waited behind their bodies while no file started (the bandwidth then ran dry at every folder)
                if (sink.get().mkdirs(directory)) {
                    run.counters().directoriesCreated.increment();
                }
                else {
                    sink.get().removeStaleTemporaries(directory);
                }
                enumerate.busy(start, 0);
            }
            try (Stream<Entry> listing = run.source().list(directory)) {
                Iterator<Entry> entries = listing.iterator();
                while (!run.stopped() && !run.stopStarting()) {
                    long start = System.nanoTime();
                    boolean more = entries.hasNext();
                    Entry entry = more ? entries.next() : null;
                    enumerate.busy(start, 0);
                    if (!more) {
                        break;
                    }
                    visit(entry, node);
                }
            }
        }
        catch (MoverException e) {
            run.outcomes().entryFailed(directory, e);
        }
        catch (RuntimeException e) {
            run.outcomes().entryFailed(directory, Retries.unexpected(e));
        }
        finally {
            node.closed();
        }
    }

    private void visit(Entry entry, DirectoryNode parent) {
        switch (entry.type()) {
            case DIRECTORY -> {
                if (run.filter().entersDirectory(entry.path())) {
                    crawl(entry.path(), parent.child(entry));
                }
            }
            case FILE -> {
                if (run.filter().includesFile(entry.path())) {
                    run.outcomes().scanned(entry);
                    run.schedule(new FileCopy(run, entry, entry.path(), parent));
                }
            }
            case SYMLINK -> {
                if (run.filter().includesFile(entry.path())) {
                    run.outcomes().scanned(entry);
                    run.symlink(entry);
                }
            }
            case OTHER -> LOG.log(System.Logger.Level.DEBUG, "skipping {0}: neither a file, a directory nor a link", entry.path());
        }
    }

    private void directoryComplete(DirectoryNode node) {
        if (run.job().sink().isEmpty() || run.stopped() || run.wasCutShort()) {
            return;
        }
        try {
            run.job().sink().get().setAttributes(node.source().path(), node.source());
        }
        catch (RuntimeException e) {
            // a plugin's unexpected failure too: it runs as a file ends, and must not keep the parent folders' times unset
            run.logWarning("could not set the modification time of directory " + node.source().path() + ": " + e);
        }
    }
}
