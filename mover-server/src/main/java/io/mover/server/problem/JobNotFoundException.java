package io.mover.server.problem;

/** The job named in the URL does not exist (or was forgotten). Rendered as 404. */
public final class JobNotFoundException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public JobNotFoundException(String id) {
        super("no job '" + id + "'; GET /api/v1/jobs lists the jobs this server knows");
    }
}
