package io.mover.core.engine;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Small files that copy quickly go several to a virtual thread and a permit: a local sync of 10 KiB files spent CPU
 * per file on the permit's lock, the thread's start, park and unpark, and a share of the carrier's kernel time; paid
 * once per batch, its CPU per file (user and system) fell from about 106 us to 86 (docs/benchmarks.md, "the JVM's own
 * kernel time, and small files in batches"). Only where it costs nothing else: a file of one range up to
 * {@value #MOST_BYTES} bytes, and only while the last batch took under {@value #QUICK_NANOS} ns a file (a local disk,
 * not a service whose round trips make every file slow: there the files in flight are the parallelism, and a batch
 * would run its files one after another behind the slowest). Until a batch has been timed, a batch is one file.
 * <p>
 * A batch keeps every per-file rule: each file is counted as started ({@link JobControls#fileStarted}) only as it
 * starts, after the permit, and ends as a lone file does (its failure, retries, outcome and folder are its own); a
 * pause asked for between two files of a batch gives the permit back and waits for the resume before the next one
 * starts, so a paused job holds no file of a batch open, and one whose files are waiting is drained. A stop lets the
 * rest of the batch run without a permit: each file sees the stop at once and is accounted for.
 * <p>
 * The pending batch belongs to the plan's thread ({@link #add}, {@link #flush}); {@link #runFiles} runs on a worker.
 */
final class FileBatches {
    /** Files in a batch at most: a batch of quick files ends within {@code MOST * QUICK_NANOS}, 80 ms. */
    static final int MOST = 16;
    /** A file below this goes in a batch; larger ones keep a thread of their own (their bytes dwarf the per-file cost). */
    static final long MOST_BYTES = 1 << 20;
    /** Batches while the last one took less than this per file, in wall time (a local file: well under 1 ms). */
    static final long QUICK_NANOS = 5_000_000;

    private final JobControls controls;
    private final TransferRun run;
    /** False in a durable job's unit, whose graceful stop must start no file once asked (see {@link #takes}). */
    private final boolean enabled;
    private List<FileCopy> pending = new ArrayList<>(MOST);
    /** The last batch's wall time per file; unmeasured at first, so the first batches are one file each. */
    private volatile long nanosPerFile = Long.MAX_VALUE;

    FileBatches(TransferRun run, JobControls controls, boolean enabled) {
        this.run = requireNonNull(run, "run is null");
        this.controls = requireNonNull(controls, "controls is null");
        this.enabled = enabled;
    }

    /**
     * Whether {@code file} may join a batch: a small file of one range, in a run that is not a durable job's unit. A
     * unit's plan checks its graceful stop before each file it schedules, and a file it scheduled is one it reports;
     * files waiting in a batch would start after the stop was asked for (left for later: a check between the files of
     * a batch, and a way to end the rest unreported).
     */
    boolean takes(FileCopy file) {
        return enabled && file.ranges() == 1 && file.size() <= MOST_BYTES;
    }

    /** Adds a file to the pending batch; starts the batch once it is as large as batches are now. */
    void add(FileCopy file) {
        pending.add(file);
        if (pending.size() >= size()) {
            flush();
        }
    }

    /** Starts what is pending, if anything: at the end of the plan, and before a file that goes alone. */
    void flush() {
        if (pending.isEmpty()) {
            return;
        }
        List<FileCopy> batch = pending;
        pending = new ArrayList<>(MOST);
        start(batch);
    }

    /**
     * A batch waits for one permit, as a lone file does, and runs on one virtual thread, which counts each file as
     * started when it starts. A batch no thread took ends its files, failed.
     */
    private void start(List<FileCopy> batch) {
        boolean permit = false;
        try {
            long start = System.nanoTime();
            permit = controls.acquire(false, run::stopped);
            run.cancelIfInterrupted();
            run.meter(Stage.ENUMERATE).waited(start);
            boolean held = permit;
            run.execute(() -> runFiles(batch, held));
        }
        catch (RuntimeException | Error e) {
            if (permit) {
                controls.release();
            }
            for (FileCopy file : batch) {
                controls.fileStarted();
                file.rangesNotStarted(1, e);
            }
            throw e;
        }
    }

    /** The files a batch takes now. */
    int size() {
        return nanosPerFile < QUICK_NANOS ? MOST : 1;
    }

    /**
     * Runs a batch's files in order on this worker; {@code permit} says whether the batch holds one (a stopped job
     * runs its files without). Gives the permit back at the end. An {@link Error} out of a file ends the files after
     * it, failed, and goes on up.
     */
    void runFiles(List<FileCopy> batch, boolean permit) {
        long start = System.nanoTime();
        boolean held = permit;
        int next = 0;
        try {
            while (next < batch.size()) {
                if (next > 0 && held && controls.pauseRequested()) {
                    // the file before has ended: the permit goes back, so the job can show PAUSED with the rest waiting
                    controls.release();
                    held = false;
                    held = controls.acquire(false, run::stopped);
                }
                controls.fileStarted();
                batch.get(next++).runRange(0);
            }
            nanosPerFile = (System.nanoTime() - start) / batch.size();
        }
        catch (Error e) {
            // the file that threw has ended (runRange's own finally); those after it never start
            for (int i = next; i < batch.size(); i++) {
                controls.fileStarted();
                batch.get(i).rangesNotStarted(1, e);
            }
            throw e;
        }
        finally {
            if (held) {
                controls.release();
            }
        }
    }
}
