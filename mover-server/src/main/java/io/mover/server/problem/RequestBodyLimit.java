package io.mover.server.problem;

import java.util.concurrent.atomic.AtomicLong;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ContentTooLargeException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bounds every request body ({@code mover.max-request-body}), so no client can make the server buffer
 * without end. A declared {@code Content-Length} over the limit is refused at once with 413, before a
 * byte of the body is read; a body without one (chunked) is counted as it streams and fails with
 * {@link ContentTooLargeException} (413 through {@link ProblemHandler}) once it passes the limit. The
 * JSON decoder's in-memory limit is the same number (see {@code WebConfiguration}).
 */
public final class RequestBodyLimit implements WebFilter, Ordered {
    private final long maxBytes;
    private final JsonMapper json;

    public RequestBodyLimit(long maxBytes, JsonMapper json) {
        this.maxBytes = maxBytes;
        this.json = json;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** Before authentication: a huge body is refused whoever sends it. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 5;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        long declared = exchange.getRequest().getHeaders().getContentLength();
        if (declared > maxBytes) {
            return ProblemWriter.write(exchange, json, HttpStatus.CONTENT_TOO_LARGE, Problems.BODY_TOO_LARGE, tooLarge());
        }
        ServerHttpRequest counted = new ServerHttpRequestDecorator(exchange.getRequest()) {
            @Override
            public Flux<DataBuffer> getBody() {
                AtomicLong seen = new AtomicLong();
                return super.getBody().<DataBuffer>handle((buffer, sink) -> {
                    if (seen.addAndGet(buffer.readableByteCount()) > maxBytes) {
                        DataBufferUtils.release(buffer);
                        sink.error(new ContentTooLargeException(new IllegalStateException(tooLarge())));
                    }
                    else {
                        sink.next(buffer);
                    }
                }).doOnDiscard(DataBuffer.class, DataBufferUtils::release); // buffers in flight when the limit trips
            }
        };
        return chain.filter(exchange.mutate().request(counted).build());
    }

    /** The one-line detail of every 413, from the filter or from the decoder. */
    public String tooLarge() {
        return "the request body is larger than " + maxBytes + " bytes (mover.max-request-body); a job is a few KiB of JSON";
    }
}
