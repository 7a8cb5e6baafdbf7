package io.mover.plugins.azurefiles;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Throttling control for one share, as an SDK pipeline policy on every attempt: a request-rate cap (token
 * bucket, {@code max-requests-per-second}), and adaptive concurrency (AIMD): on 503 ServerBusy or 429 the limit
 * of requests in flight halves (at most once per 100 ms, so one burst of refusals counts once), each success adds
 * 1/limit. A throttled request waits for Retry-After (or an exponential backoff) and is sent again, up to
 * {@value #ATTEMPTS} times, before the SDK's own retry policy sees the failure.
 */
final class Throttle implements HttpPipelinePolicy {
    static final int ATTEMPTS = 12;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private final int maxConcurrency;
    private final int requestsPerSecond;
    private final LongAdder throttled = new LongAdder();
    private final LongAdder requests = new LongAdder();
    private double limit;
    private int inFlight;
    private long lastDecrease;
    private double tokens;
    private long lastRefill = System.nanoTime();

    Throttle(int maxConcurrency, int requestsPerSecond) {
        this.maxConcurrency = maxConcurrency;
        this.requestsPerSecond = requestsPerSecond;
        this.limit = maxConcurrency;
        this.tokens = requestsPerSecond;
    }

    @Override
    public HttpPipelinePosition getPipelinePosition() {
        return HttpPipelinePosition.PER_RETRY;
    }

    /**
     * The asynchronous pipeline: the share SDK's synchronous {@code uploadRange} runs on it. The first attempt waits
     * for a permit on the caller's (engine) thread; attempts after a throttled one wait on a bounded-elastic thread.
     */
    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        var body = context.getHttpRequest().getBodyAsBinaryData();
        if (body != null && !body.isReplayable()) {
            context.getHttpRequest().setBody(body.toReplayableBinaryData());
        }
        return attempt(next, 1);
    }

    private Mono<HttpResponse> attempt(HttpPipelineNextPolicy next, int attempt) {
        return Mono.defer(() -> {
            acquire();
            requests.increment();
            return next.clone().process().doFinally(signal -> release());
        }).flatMap(response -> {
            int status = response.getStatusCode();
            if (status != 503 && status != 429) {
                increase();
                return Mono.just(response);
            }
            throttled.increment();
            decrease();
            if (attempt == ATTEMPTS) {
                return Mono.just(response);
            }
            Duration wait = retryAfter(response.getHeaderValue(com.azure.core.http.HttpHeaderName.RETRY_AFTER), attempt);
            response.close();
            return Mono.delay(wait, Schedulers.boundedElastic()).then(attempt(next, attempt + 1));
        });
    }

    @Override
    public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
        var body = context.getHttpRequest().getBodyAsBinaryData();
        if (body != null && !body.isReplayable()) {
            context.getHttpRequest().setBody(body.toReplayableBinaryData());
        }
        for (int attempt = 1; ; attempt++) {
            acquire();
            HttpResponse response;
            try {
                requests.increment();
                response = next.clone().processSync();
            }
            finally {
                release();
            }
            int status = response.getStatusCode();
            if (status != 503 && status != 429) {
                increase();
                return response;
            }
            throttled.increment();
            decrease();
            if (attempt == ATTEMPTS) {
                return response;
            }
            Duration wait = retryAfter(response.getHeaderValue(com.azure.core.http.HttpHeaderName.RETRY_AFTER), attempt);
            response.close();
            sleep(wait);
        }
    }

    static Duration retryAfter(String header, int attempt) {
        if (header != null && header.matches("\\d{1,5}")) {
            return Duration.ofSeconds(Long.parseLong(header));
        }
        long base = Math.min(8000, 50L << Math.min(attempt, 8));
        return Duration.ofMillis(base / 2 + (long) (Math.random() * base / 2));
    }

    private void acquire() {
        lock.lock();
        try {
            while (inFlight >= Math.max(1, (int) limit)) {
                released.awaitUninterruptibly();
            }
            inFlight++;
        }
        finally {
            lock.unlock();
        }
        if (requestsPerSecond > 0) {
            takeToken();
        }
    }

    private void takeToken() {
        while (true) {
            long waitNanos;
            synchronized (this) {
                long now = System.nanoTime();
                tokens = Math.min(requestsPerSecond, tokens + (now - lastRefill) * requestsPerSecond / 1e9);
                lastRefill = now;
                if (tokens >= 1) {
                    tokens -= 1;
                    return;
                }
                waitNanos = (long) ((1 - tokens) * 1e9 / requestsPerSecond);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(waitNanos);
        }
    }

    private void release() {
        lock.lock();
        try {
            inFlight--;
            released.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    private void increase() {
        lock.lock();
        try {
            limit = Math.min(maxConcurrency, limit + 1 / limit);
            released.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    private void decrease() {
        lock.lock();
        try {
            long now = System.nanoTime();
            if (now - lastDecrease > 100_000_000L) {
                limit = Math.max(1, limit / 2);
                lastDecrease = now;
            }
        }
        finally {
            lock.unlock();
        }
    }

    private static void sleep(Duration wait) {
        try {
            Thread.sleep(wait);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.mover.spi.MoverException(io.mover.spi.ErrorCode.CANCELLED, "interrupted while waiting out Azure Files throttling");
        }
    }

    long throttledCount() {
        return throttled.sum();
    }

    long requestCount() {
        return requests.sum();
    }

    int currentLimit() {
        lock.lock();
        try {
            return (int) limit;
        }
        finally {
            lock.unlock();
        }
    }
}
