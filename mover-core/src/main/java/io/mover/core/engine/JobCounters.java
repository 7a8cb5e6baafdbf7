package io.mover.core.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** A job's running counts. Lock-free except the bounded list of first failures. */
final class JobCounters {
    static final int MAX_FAILURES_KEPT = 100;

    final LongAdder filesScanned = new LongAdder();
    final LongAdder bytesScanned = new LongAdder();
    final LongAdder filesDone = new LongAdder();
    final LongAdder filesSkipped = new LongAdder();
    final LongAdder filesFailed = new LongAdder();
    final LongAdder bytesMoved = new LongAdder();
    final LongAdder bytesSkipped = new LongAdder();
    final LongAdder bytesTransferred = new LongAdder();
    final LongAdder directoriesCreated = new LongAdder();
    final LongAdder retries = new LongAdder();
    private final List<FileFailure> failures = new ArrayList<>();

    void failed(FileFailure failure) {
        filesFailed.increment();
        synchronized (failures) {
            if (failures.size() < MAX_FAILURES_KEPT) {
                failures.add(failure);
            }
        }
    }

    List<FileFailure> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    /** Bytes finished, for percent and throughput: blocks written plus files skipped. */
    long bytesDone() {
        return bytesMoved.sum() + bytesSkipped.sum();
    }
}
