package io.mover.server.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.mover.server.config.ApiToken;
import io.mover.server.config.TokenScope;
import io.mover.server.problem.ProblemWriter;
import io.mover.server.problem.Problems;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import static java.util.Objects.requireNonNull;

/**
 * Bearer tokens, when any are configured: {@code read} tokens may GET, {@code operate} tokens may also
 * change jobs (POST, PATCH...), {@code admin} tokens may also use the actuator's endpoints other than
 * health and prometheus. Everything needs a token except {@code /actuator/health}, which load balancers
 * probe without one. Failures are problem details (401 without a valid token, 403 with too small a scope). Tokens are
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
        String path = exchange.getRequest().getPath().pathWithinApplication().value();
        TokenScope needed = needs(exchange.getRequest().getMethod(), path);
        if (!scope.get().permits(needed)) {
            String wanted = needed.name().toLowerCase(Locale.ROOT);
            return reject(exchange, HttpStatus.FORBIDDEN, "Bearer realm=\"mover\", error=\"insufficient_scope\", scope=\"" + wanted + "\"",
                    "this token has scope " + scope.get().name().toLowerCase(Locale.ROOT) + "; "
                            + exchange.getRequest().getMethod().name() + " " + path + " needs a token with scope " + wanted);
        }
        return chain.filter(exchange);
    }

    static boolean isOpen(String path) {
        return path.equals("/actuator/health") || path.startsWith("/actuator/health/");
    }

    /**
     * The scope a request needs. The actuator is the server's own administration (its environment,
     * loggers, metrics...): admin, except health (open) and prometheus (read, for scrapers).
     */
    static TokenScope needs(HttpMethod method, String path) {
        if (isActuator(path) && !isOpen(path) && !path.equals("/actuator/prometheus")) {
            return TokenScope.ADMIN;
        }
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method) || HttpMethod.OPTIONS.equals(method)
                ? TokenScope.READ
                : TokenScope.OPERATE;
    }

    private static boolean isActuator(String path) {
        return path.equals("/actuator") || path.startsWith("/actuator/");
    }

    /** Compares against every token, without stopping at a match, so timing tells nothing either. */
    Optional<TokenScope> scopeOf(String presented) {
        byte[] digest = sha256(presented);
        TokenScope found = null;
        for (Known known : tokens) {
            if (MessageDigest.isEqual(known.digest(), digest) && (found == null || known.scope().permits(found))) {
                found = known.scope();
            }
        }
        return Optional.ofNullable(found);
    }

    private Mono<Void> reject(ServerWebExchange exchange, HttpStatus status, String challenge, String detail) {
        exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, challenge);
        return ProblemWriter.write(exchange, json, status, status == HttpStatus.UNAUTHORIZED ? Problems.UNAUTHORIZED : Problems.FORBIDDEN, detail);
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
