package io.mover.server.job.web;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.mover.core.service.FileResult;

/**
 * A page of {@code GET /api/v1/jobs/{id}/files}.
 *
 * @param items the files of this page, in the order their outcomes were recorded
 * @param offset where the page starts
 * @param limit the most items a page holds
 * @param hasMore whether a next page has items
 * @param notKept files matching the query whose results this server did not keep (the in-memory
 *        service keeps the first 10,000 failed files of a job and counts the rest); 0 with the job store
 */
public record FilePage(List<FileResponse> items, int offset, int limit, boolean hasMore, long notKept) {

    /** One file: {@code code} and {@code message} only when it failed. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FileResponse(String path, String outcome, String code, String message, int attempts) {
        static FileResponse of(FileResult result) {
            return new FileResponse(result.path(), result.outcome().name().toLowerCase(Locale.ROOT),
                    result.code().map(Enum::name).orElse(null), result.message().orElse(null), result.attempts());
        }
    }
}
