package io.mover.core.service;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A page of a job's per-file results.
 *
 * @param items the results of this page, in the order they were recorded
 * @param notKept results matching the query that this service did not keep: the embedded service keeps
 *        the first {@value EmbeddedJobService#MAX_FILE_RESULTS_KEPT} failures and no other outcomes (their
 *        counts are in the job's progress); the durable job store keeps every outcome, and reports 0
 */
public record FileResults(List<FileResult> items, long notKept) {
    public FileResults {
        items = List.copyOf(requireNonNull(items, "items is null"));
    }
}
