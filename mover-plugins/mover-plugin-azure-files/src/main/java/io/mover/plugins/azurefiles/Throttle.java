package io.mover.plugins.azurefiles;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;

import reactor.core.publisher.Mono;

/**
 * Throttling control for one share, as an SDK pipeline policy on every attempt: each request waits for its turn
 * ({@link Admission}: adaptive concurrency and the {@code max-requests-per-second} cap); a request answered 503
 * ServerBusy or 429 lowers the concurrency, waits for Retry-After (or an exponential backoff with jitter) and is
 * sent again, up to {@value #ATTEMPTS} times, before the SDK's own retry policy sees the failure.
 *
 * <p>Waiting never blocks a Reactor or HTTP client thread: the asynchronous pipeline (the SDK's ranged upload and
 * download run on it) waits with {@link Mono#delay} and {@link Admission#run}, and a cancelled subscription
 * stops the wait. The synchronous pipeline runs on the engine's thread, which an interrupt (or the writer's
 * {@code abort}) frees at once. Counts go to the job summary through {@link #counters()}.
 */
final class Throttle implements HttpPipelinePolicy {
    static final int ATTEMPTS = 12;
    private final Admission admission;
    private final LongAdder requests = new LongAdder();
    private final LongAdder busy503 = new LongAdder();
    private final LongAdder tooMany429 = new LongAdder();
    private final LongAdder resent = new LongAdder();
    private final LongAdder gaveUp = new LongAdder();
    private final LongAdder backoffNanos = new LongAdder();

    Throttle(int maxConcurrency, int requestsPerSecond) {
        this.admission = new Admission(maxConcurrency, requestsPerSecond);
    }

    @Override
    public HttpPipelinePosition getPipelinePosition() {
        return HttpPipelinePosition.PER_RETRY;
    }

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        // No buffering of the body here: the SDK's retry policy, which runs before this one, already made it a Flux
        // of duplicates that a new subscription replays, and its own retries rely on that as ours do. Buffering
        // (BinaryData.toReplayableBinaryData) copied every Put Range body once more.
        return attempt(next, 1);
    }

    private Mono<HttpResponse> attempt(HttpPipelineNextPolicy next, int attempt) {
        return admission.run(() -> {
            requests.increment();
            return next.clone().process();
        }).flatMap(response -> {
            Duration wait = judge(response, attempt);
            if (wait == null) {
                return Mono.just(response);
            }
            long start = System.nanoTime();
            return Mono.delay(wait).doFinally(signal -> backoffNanos.add(System.nanoTime() - start)).then(Mono.defer(() -> attempt(next, attempt + 1)));
        });
    }

    @Override
    public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
        replayable(context);
        for (int attempt = 1; ; attempt++) {
            Admission.Permit permit = admission.await();
            HttpResponse response;
            try {
                requests.increment();
                response = next.clone().processSync();
            }
            finally {
                permit.release();
            }
            Duration wait = judge(response, attempt);
            if (wait == null) {
                return response;
            }
            sleep(wait);
        }
    }

    /** A body sent more than once must be replayable (the synchronous pipeline's bodies are small or none). */
    private static void replayable(HttpPipelineCallContext context) {
        var body = context.getHttpRequest().getBodyAsBinaryData();
        if (body != null && !body.isReplayable()) {
            context.getHttpRequest().setBody(body.toReplayableBinaryData());
        }
    }

    /** Null when {@code response} is the answer; else how long to wait before sending again (the response is closed). */
    private Duration judge(HttpResponse response, int attempt) {
        int status = response.getStatusCode();
        if (status != 503 && status != 429) {
            admission.succeeded();
            return null;
        }
        (status == 503 ? busy503 : tooMany429).increment();
        admission.throttled();
        if (attempt == ATTEMPTS) {
            gaveUp.increment();
            return null;
        }
        resent.increment();
        Duration wait = retryAfter(response.getHeaderValue(HttpHeaderName.RETRY_AFTER), attempt);
        response.close();
        return wait;
    }

    static Duration retryAfter(String header, int attempt) {
        if (header != null && header.matches("\\d{1,5}")) {
            return Duration.ofSeconds(Long.parseLong(header));
        }
        long base = Math.min(8000, 50L << Math.min(attempt, 8));
        return Duration.ofMillis(base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1));
    }

    private void sleep(Duration wait) {
        long start = System.nanoTime();
        try {
            Thread.sleep(wait);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(ErrorCode.CANCELLED, "interrupted while waiting out Azure Files throttling");
        }
        finally {
            backoffNanos.add(System.nanoTime() - start);
        }
    }

    long throttledCount() {
        return busy503.sum() + tooMany429.sum();
    }

    long requestCount() {
        return requests.sum();
    }

    int currentLimit() {
        return admission.currentLimit();
    }

    Admission admission() {
        return admission;
    }

    /** What this share's throttling did so far, cumulative; the names are the plugin's {@code PluginCounters} names. */
    Map<String, Long> counters() {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("azure-files.requests", requests.sum());
        counters.put("azure-files.throttled-503", busy503.sum());
        counters.put("azure-files.throttled-429", tooMany429.sum());
        counters.put("azure-files.throttle-retries", resent.sum());
        counters.put("azure-files.throttle-gave-up", gaveUp.sum());
        counters.put("azure-files.throttle-wait-ms", backoffNanos.sum() / 1_000_000);
        counters.put("azure-files.rate-cap-wait-ms", admission.rateWaitNanos() / 1_000_000);
        return counters;
    }
}
