package io.mover.plugins.local;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class WriteBehindTest {
    /** A flush that counts its calls and, while {@link #hold} is up, blocks like a slow disk. */
    private static final class Disk implements WriteBehind.Flush {
        final AtomicInteger flushes = new AtomicInteger();
        final CountDownLatch started = new CountDownLatch(1);
        volatile CountDownLatch hold = new CountDownLatch(0);
        volatile IOException fail;

        @Override
        public void flush() throws IOException {
            flushes.incrementAndGet();
            started.countDown();
            try {
                hold.await(20, TimeUnit.SECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (fail != null) {
                throw fail;
            }
        }
    }

    @Test
    void flushesOnceEnoughWasWritten() throws Exception {
        Disk disk = new Disk();
        WriteBehind behind = new WriteBehind(disk, 100);
        behind.wrote(60);
        behind.settle();
        assertThat(disk.flushes).hasValue(0);
        behind.wrote(60);
        assertThat(disk.started.await(10, TimeUnit.SECONDS)).isTrue();
        behind.settle();
        assertThat(disk.flushes).hasValue(1);
    }

    @Test
    void neverTwoFlushesAtOnceAndTheCommitWaitsForTheOneInFlight() throws Exception {
        Disk disk = new Disk();
        disk.hold = new CountDownLatch(1);
        WriteBehind behind = new WriteBehind(disk, 100);
        behind.wrote(100);
        assertThat(disk.started.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 10; i++) {
            behind.wrote(100);
        }
        CountDownLatch settled = new CountDownLatch(1);
        Thread commit = Thread.ofVirtual().start(() -> {
            try {
                behind.settle();
                settled.countDown();
            }
            catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(settled.await(200, TimeUnit.MILLISECONDS)).as("settle returned while a flush was in flight").isFalse();
        assertThat(disk.flushes).hasValue(1);
        disk.hold.countDown();
        assertThat(settled.await(10, TimeUnit.SECONDS)).isTrue();
        commit.join();
        // what gathered during the flush starts the next one
        behind.wrote(100);
        behind.settle();
        assertThat(disk.flushes).hasValue(2);
    }

    @Test
    void aFailedFlushFailsTheCommitEvenAfterALaterOneSucceeded() throws Exception {
        Disk disk = new Disk();
        disk.fail = new IOException("EIO");
        WriteBehind behind = new WriteBehind(disk, 10);
        behind.wrote(10);
        assertThatThrownBy(behind::settle).isInstanceOf(IOException.class).hasMessageContaining("EIO");
        disk.fail = null;
        behind.wrote(10);
        assertThatThrownBy(behind::settle).isInstanceOf(IOException.class).hasMessageContaining("writing back to disk failed: EIO");
        assertThat(disk.flushes).hasValue(2);
    }
}
