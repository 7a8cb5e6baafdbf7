package io.mover.core.service;

import io.mover.core.engine.JobState;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

/**
 * Asked to change a job that has already ended (pause, resume, update). A conflict with the job's state
 * rather than bad input: the REST API answers 409.
 */
public final class JobEndedException extends MoverException {
    private static final long serialVersionUID = 1L;

    private final JobState state;

    public JobEndedException(JobId id, JobState state, String action) {
        super(ErrorCode.UNSUPPORTED, "cannot " + action + " job " + id + ": it has ended (" + state + ")");
        this.state = state;
    }

    public JobState state() {
        return state;
    }
}
