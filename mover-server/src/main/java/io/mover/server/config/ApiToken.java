package io.mover.server.config;

import static java.util.Objects.requireNonNull;

/**
 * A configured bearer token ({@code mover.tokens[0].token}, {@code mover.tokens[0].scope}).
 *
 * @param token the secret the client sends; never logged, {@link #toString()} hides it
 * @param scope what it may do; {@code read} when not given
 */
public record ApiToken(String token, TokenScope scope) {
    /** Shorter tokens are guessable; refuse them at startup rather than run with them. */
    public static final int MIN_LENGTH = 16;

    public ApiToken {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("mover.tokens[].token is empty: give each token a secret of at least " + MIN_LENGTH + " characters");
        }
        if (token.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("a mover token is shorter than " + MIN_LENGTH + " characters: use a long random secret (openssl rand -hex 32)");
        }
        scope = scope == null ? TokenScope.READ : scope;
        requireNonNull(scope, "scope is null");
    }

    @Override
    public String toString() {
        return "ApiToken[token=[hidden], scope=" + scope + "]";
    }
}
