package io.mover.core.engine;

import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What a sync found and did, beside a job's usual counts: azcopy sync's fields (files scanned at the
 * source and at the destination, copies, deletions) plus what was unchanged and how long the compare took.
 * While the job runs it carries the counts so far.
 *
 * @param sourceFiles files (and links) listed at the source, after filters
 * @param destinationFiles files (and links) listed at the destination, after filters
 * @param unchanged files the compare found equal, left alone
 * @param toCopy files the compare found new or changed
 * @param bytesToCopy their bytes
 * @param toDelete files (and folders) at the destination the source does not have, planned for deletion
 * @param deleted those actually deleted
 * @param attributesUpdated files whose content was equal and only the mode or time was set
 * @param compare time spent listing both sides and comparing (the planning phase)
 * @param planning true while the two sides are still being listed
 * @param warnings things the operator should know (filters that matched nothing, times in the future, files that changed during the sync)
 */
public record SyncReport(long sourceFiles, long destinationFiles, long unchanged, long toCopy, long bytesToCopy, long toDelete,
        long deleted, long attributesUpdated, Duration compare, boolean planning, List<String> warnings) {
    public SyncReport {
        requireNonNull(compare, "compare is null");
        warnings = List.copyOf(requireNonNull(warnings, "warnings is null"));
    }

    /** Files listed per second of the compare phase, both sides together. */
    public double entriesPerSecond() {
        long nanos = compare.toNanos();
        return nanos == 0 ? 0 : (sourceFiles + destinationFiles) * 1e9 / nanos;
    }
}
