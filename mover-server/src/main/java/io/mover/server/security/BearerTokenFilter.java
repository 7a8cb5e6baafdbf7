package io.mover.server.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.mover.server.config.ApiToken;
import io.mover.server.config.TokenScope;
import io.mover.server.problem.Problems;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import static java.util.Objects.requireNonNull;

/**
 * Bearer tokens, when any are configured: {@code read} tokens may GET, {@code operate} tokens may also
 * POST. Everything needs a token except {@code /actuator/health}, which load balancers probe without
 * one. Failures are problem details (401 without a valid token, 403 with too small a scope). Tokens are
 * compared as SHA-256 digests with {@link MessageDigest#isEqual}, in time that does not depend on
 * where they differ or on their length, and the presented token is never logged.
 */
public final class BearerTokenFilter implements WebFilter, Ordered {
    private static final String BEARER = "bearer ";

    private final List<Known> tokens;
    private final JsonMapper json;

    private record Known(byte[] digest, TokenScope scope) {}

    public BearerTokenFilter(List<ApiToken> tokens, JsonMapper json) {
        this.tokens = requireNonNull(tokens, "tokens is null").stream().map(t -> new Known(sha256(t.token()), t.scope())).toList();
        this.json = requireNonNull(json, "json is null");
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (tokens.isEmpty() || isOpen(exchange.getRequest().getPath().pathWithinApplication().value())) {
            return chain.filter(exchange);
        }
        String header = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.toLowerCase(Locale.ROOT).startsWith(BEARER)) {
            return reject(exchange, HttpStatus.UNAUTHORIZED, "Bearer realm=\"mover\"",
                    "this server needs a token: send 'Authorization: Bearer <token>'");
        }
        Optional<TokenScope> scope = scopeOf(header.substring(BEARER.length()).trim());
        if (scope.isEmpty()) {
            return reject(exchange, HttpStatus.UNAUTHORIZED, "Bearer realm=\"mover\", error=\"invalid_token\"",
                    "the bearer token is not one this server knows");
        }
        TokenScope needed = needs(exchange.getRequest().getMethod());
        if (!scope.get().permits(needed)) {
            return reject(exchange, HttpStatus.FORBIDDEN, "Bearer realm=\"mover\", error=\"insufficient_scope\", scope=\"operate\"",
                    "this token has scope " + scope.get().name().toLowerCase(Locale.ROOT) + "; "
                            + exchange.getRequest().getMethod().name() + " needs a token with scope operate");
        }
        return chain.filter(exchange);
    }

    static boolean isOpen(String path) {
        return path.equals("/actuator/health") || path.startsWith("/actuator/health/");
    }

    static TokenScope needs(HttpMethod method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method) || HttpMethod.OPTIONS.equals(method)
                ? TokenScope.READ
                : TokenScope.OPERATE;
    }

    /** Compares against every token, without stopping at a match, so timing tells nothing either. */
    Optional<TokenScope> scopeOf(String presented) {
        byte[] digest = sha256(presented);
        TokenScope found = null;
        for (Known known : tokens) {
            if (MessageDigest.isEqual(known.digest(), digest) && (found == null || known.scope() == TokenScope.OPERATE)) {
                found = known.scope();
            }
        }
        return Optional.ofNullable(found);
    }

    private Mono<Void> reject(ServerWebExchange exchange, HttpStatus status, String challenge, String detail) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", (status == HttpStatus.UNAUTHORIZED ? Problems.UNAUTHORIZED : Problems.FORBIDDEN).toString());
        problem.put("title", status.getReasonPhrase());
        problem.put("status", status.value());
        problem.put("detail", detail);
        problem.put("instance", exchange.getRequest().getPath().value());
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(status);
        response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, challenge);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        DataBuffer body = response.bufferFactory().wrap(json.writeValueAsBytes(problem));
        return response.writeWith(Mono.just(body));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
