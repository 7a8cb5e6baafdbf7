package io.mover.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.mover.spi.ErrorCode;
import io.mover.spi.MoverException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Where the mover server is and how to authenticate to it: {@code --server} or {@code $MOVER_SERVER},
 * and a bearer token from {@code --token-file}, {@code --token} or {@code $MOVER_TOKEN}. The token is
 * only ever handed to the HTTP clients: no message, log line or toString() shows it.
 */
final class ServerOptions {
    static final String DEFAULT_SERVER = "http://127.0.0.1:8080";
    static final String SERVER_VARIABLE = "MOVER_SERVER";
    static final String TOKEN_VARIABLE = "MOVER_TOKEN";

    @Option(names = "--server", paramLabel = "URL",
            description = "The mover server to use (mover serve), such as http://127.0.0.1:8080. Default: $MOVER_SERVER.")
    String server;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Token token;

    static final class Token {
        @Option(names = "--token-file", paramLabel = "FILE", description = "A file holding the server's bearer token. Default: $MOVER_TOKEN.")
        Path file;

        @Option(names = "--token", paramLabel = "TOKEN", description = "The bearer token itself (visible to other users in ps: prefer --token-file).")
        String text;
    }

    /** The server named by {@code --server} or {@code $MOVER_SERVER}, if any: copy runs standalone without one. */
    Optional<ServerTarget> named(Map<String, String> environment) {
        String url = server != null ? server : environment.get(SERVER_VARIABLE);
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new ServerTarget(parse(url), token(environment)));
    }

    /** The server to talk to: the named one, else the default a plain {@code mover serve} listens on. */
    ServerTarget target(Map<String, String> environment) {
        return named(environment).orElseGet(() -> new ServerTarget(parse(DEFAULT_SERVER), token(environment)));
    }

    private Optional<String> token(Map<String, String> environment) {
        if (token != null && token.text != null) {
            return nonBlank(token.text, "--token is empty");
        }
        if (token != null && token.file != null) {
            try {
                return nonBlank(Files.readString(token.file, StandardCharsets.UTF_8), "the token file " + token.file + " is empty");
            }
            catch (IOException e) {
                // the exception names the file and the reason; its text is never the file's content
                throw new MoverException(ErrorCode.INVALID_ARGUMENT, "cannot read the token file " + token.file + ": " + e.getClass().getSimpleName());
            }
        }
        String fromEnvironment = environment.get(TOKEN_VARIABLE);
        return fromEnvironment == null || fromEnvironment.isBlank() ? Optional.empty() : Optional.of(fromEnvironment.strip());
    }

    private static Optional<String> nonBlank(String token, String whenBlank) {
        if (token.isBlank()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, whenBlank);
        }
        return Optional.of(token.strip());
    }

    /** http or https with a host; a trailing slash or {@code /api/v1} (as printed by mover serve) is dropped. */
    static URI parse(String url) {
        String text = url.strip();
        if (text.endsWith("/")) {
            text = text.substring(0, text.length() - 1);
        }
        if (text.endsWith("/api/v1")) {
            text = text.substring(0, text.length() - "/api/v1".length());
        }
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null && uri.getUserInfo() == null) {
                return uri;
            }
        }
        catch (URISyntaxException e) {
            // reported below
        }
        throw new MoverException(ErrorCode.INVALID_ARGUMENT, "invalid server URL '" + url + "': use http://HOST:PORT, such as " + DEFAULT_SERVER);
    }

    /**
     * A server and the token to present to it.
     *
     * @param base the server's root ({@code http://127.0.0.1:8080})
     * @param token the bearer token, if any; {@link #toString()} hides it
     */
    record ServerTarget(URI base, Optional<String> token) {
        @Override
        public String toString() {
            return base + (token.isPresent() ? " (with a token)" : "");
        }
    }
}
