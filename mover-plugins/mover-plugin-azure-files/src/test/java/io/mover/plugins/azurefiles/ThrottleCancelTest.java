package io.mover.plugins.azurefiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.mover.plugins.azurefiles.fileservice.FileServiceDouble;
import io.mover.spi.Entry;
import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import io.mover.spi.RelativePath;
import io.mover.spi.SinkWriter;
import io.mover.spi.SourceReader;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A share that answers every request 503 ServerBusy with Retry-After: 60 keeps a request waiting a minute per
 * attempt. Aborting the write or the read from another thread (a cancelled job), or interrupting a caller, must end
 * the wait at once (well under one Retry-After), leave no permit taken, and count what happened.
 */
@Timeout(60)
final class ThrottleCancelTest {
    private static final Instant MTIME = Instant.parse("2024-05-06T07:08:09Z");
    @TempDir
    Path scratch;

    @AfterEach
    void calm() {
        TestService.get().faults().serverBusy = false;
        TestService.get().faults().retryAfterSeconds = -1;
    }

    private static CompletableFuture<Throwable> inThread(Runnable call, Thread[] thread) {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        thread[0] = Thread.ofVirtual().start(() -> {
            try {
                call.run();
                outcome.complete(null);
            }
            catch (Throwable e) {
                outcome.complete(e);
            }
        });
        return outcome;
    }

    /** Until the sink has seen a 503 and is waiting out its Retry-After. */
    private static void awaitThrottled(io.mover.spi.PluginCounters sink) throws InterruptedException {
        for (int i = 0; i < 1_000 && sink.counters().get("azure-files.throttle-retries") == 0; i++) {
            Thread.sleep(10);
        }
        assertThat(sink.counters().get("azure-files.throttle-retries")).as("the share refused a request").isPositive();
    }

    @Test
    void abortingAWriteThatWaitsOutThrottlingEndsItAtOnce() throws Exception {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "busywrite");
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "busywrite", Map.of(), TestService.context(scratch, "cancel1"))) {
            SinkWriter writer = sink.create(RelativePath.of("f.bin"), 4, new Entry(RelativePath.of("f.bin"), io.mover.spi.EntryType.FILE, 4, MTIME,
                    io.mover.spi.Attributes.NONE));
            long before = service.count("throttled");
            service.faults().retryAfterSeconds = 60;
            service.faults().serverBusy = true;
            Thread[] thread = new Thread[1];
            CompletableFuture<Throwable> write = inThread(() -> writer.write(0, ByteBuffer.wrap(new byte[] {1, 2, 3, 4})), thread);
            awaitThrottled(sink);
            service.faults().serverBusy = false;   // the abort's own Delete File goes through
            writer.abort();

            Throwable failure = write.get(15, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(MoverException.class).extracting(e -> ((MoverException) e).code()).isEqualTo(ErrorCode.CANCELLED);
            thread[0].join(java.time.Duration.ofSeconds(5));
            assertThat(service.names(TestService.ACCOUNT, "busywrite", "")).isEmpty();
            assertThat(sink.share.throttle.admission().inFlightAndWaiting()).containsExactly(0, 0);
            assertThat(sink.counters()).containsEntry("azure-files.throttled-503", service.count("throttled") - before)
                    .containsKeys("azure-files.requests", "azure-files.throttle-retries", "azure-files.throttle-wait-ms");
        }
    }

    @Test
    void abortingAReadThatWaitsOutThrottlingEndsItAtOnce() throws Exception {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "busyread");
        service.put(TestService.ACCOUNT, "busyread", "f.bin", new byte[] {1, 2, 3, 4}, MTIME);
        try (AzureFilesSource source = TestService.source(TestService.ACCOUNT, "busyread", Map.of(), TestService.context(scratch, "cancel3"));
                SourceReader reader = source.open(RelativePath.of("f.bin"))) {
            service.faults().retryAfterSeconds = 60;
            service.faults().serverBusy = true;
            Thread[] thread = new Thread[1];
            CompletableFuture<Throwable> read = inThread(() -> reader.read(0, ByteBuffer.allocate(4)), thread);
            awaitThrottled(source);
            reader.abort();   // the job was cancelled

            Throwable failure = read.get(15, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(MoverException.class).extracting(e -> ((MoverException) e).code()).isEqualTo(ErrorCode.CANCELLED);
            thread[0].join(java.time.Duration.ofSeconds(5));
            assertThat(thread[0].isInterrupted()).as("the interrupt was the abort's: the engine's thread goes on").isFalse();
            assertThat(source.share.throttle.admission().inFlightAndWaiting()).containsExactly(0, 0);
            service.faults().serverBusy = false;
            assertThatThrownBy(() -> reader.read(0, ByteBuffer.allocate(4))).as("an aborted reader reads no more")
                    .isInstanceOfSatisfying(MoverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED));
        }
    }

    @Test
    void anInterruptEndsACallOfTheSynchronousPipelineThatWaitsOutThrottling() throws Exception {
        FileServiceDouble service = TestService.get().share(TestService.ACCOUNT, "busydirs");
        try (AzureFilesSink sink = TestService.sink(TestService.ACCOUNT, "busydirs", Map.of(), TestService.context(scratch, "cancel2"))) {
            long before = service.count("throttled");
            service.faults().retryAfterSeconds = 60;
            service.faults().serverBusy = true;
            Thread[] thread = new Thread[1];
            CompletableFuture<Throwable> mkdir = inThread(() -> sink.mkdirs(RelativePath.of("a/b")), thread);
            awaitThrottled(sink);
            thread[0].interrupt();

            Throwable failure = mkdir.get(15, TimeUnit.SECONDS);
            assertThat(failure).isInstanceOf(MoverException.class).extracting(e -> ((MoverException) e).code()).isEqualTo(ErrorCode.CANCELLED);
            assertThat(sink.share.throttle.admission().inFlightAndWaiting()).containsExactly(0, 0);
            service.faults().serverBusy = false;
            assertThat(sink.mkdirs(RelativePath.of("a/b"))).as("the share works again, no permit was lost").isTrue();
        }
    }
}
