package io.mover.server.job.web;

import java.util.List;

/**
 * One page of {@code GET /api/v1/jobs}, newest first.
 *
 * @param items the jobs on this page
 * @param offset the offset asked for
 * @param limit the page size asked for
 * @param hasMore true when a next page ({@code offset + limit}) has jobs
 */
public record JobPage(List<JobResponse> items, int offset, int limit, boolean hasMore) {
    public JobPage {
        items = List.copyOf(items);
    }
}
