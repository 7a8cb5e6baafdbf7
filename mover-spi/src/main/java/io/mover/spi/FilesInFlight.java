package io.mover.spi;

/**
 * An optional ability of a {@link Source} or a {@link Sink}: how many files (or ranges of large files) it would like
 * in flight at once, for a job whose user did not say ({@code --concurrency}, a REST job's {@code
 * options.concurrency}). A store whose every request waits long (a cloud service: milliseconds per request, and a
 * bandwidth shared by all bodies in flight) needs more files in flight to keep busy than a local disk, for which
 * mover's default (16) was measured best. Derive the figure from what the store is: its per-request latency and
 * bandwidth, or the requests it admits at once.
 *
 * <p>mover asks once per run, after the endpoint is opened, and takes the larger of the source's and the
 * destination's suggestions, bounded to 1..1024 and, above its default, to the blocks its buffer pool holds (a higher
 * default never raises the job's memory). A value the user set always wins. Must be cheap and do no I/O.
 *
 * @since 1.6
 */
public interface FilesInFlight {
    /** The files (or ranges) this endpoint would like in flight at once; values outside 1..1024 are bounded. */
    int filesInFlight();
}
