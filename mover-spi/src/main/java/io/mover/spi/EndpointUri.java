package io.mover.spi;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Where an endpoint is: {@code scheme://authority/path?query}. A plain path ({@code /data/in},
 * {@code ./in}, {@code C:\in}) is the {@code file} scheme with the path made absolute.
 *
 * <p>The query may carry credentials (an Azure SAS), so {@link #toString()} prints it as
 * {@code ?[hidden]}; {@link #query()} is the one explicit way to read it.
 *
 * @param scheme lower-case scheme, {@code file} for plain paths
 * @param authority host, host:port, account or server; empty for {@code file}
 * @param path the decoded path after the authority, starting with {@code /} (for {@code file}, absolute)
 * @param query the raw query string without {@code ?}; empty when there is none
 */
public record EndpointUri(String scheme, String authority, String path, Optional<Secret> query) {
    private static final Pattern SCHEME = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*)://");

    public EndpointUri {
        requireNonNull(scheme, "scheme is null");
        requireNonNull(authority, "authority is null");
        requireNonNull(path, "path is null");
        requireNonNull(query, "query is null");
        scheme = scheme.toLowerCase(Locale.ROOT);
    }

    /**
     * Parses what a user typed. Throws {@link ErrorCode#INVALID_ARGUMENT} for a malformed URI.
     */
    public static EndpointUri parse(String text) {
        requireNonNull(text, "text is null");
        if (text.isBlank()) {
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "an empty location was given: name a path or a URI such as file:///data");
        }
        if (text.indexOf('\0') >= 0) {
            throw new MoverException(ErrorCode.INVALID_PATH, "a location cannot contain a NUL character");
        }
        if (!SCHEME.matcher(text).find()) {
            return new EndpointUri("file", "", Path.of(text).toAbsolutePath().normalize().toString(), Optional.empty());
        }
        try {
            URI uri = new URI(text);
            String path = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
            String authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
            Optional<Secret> query = Optional.ofNullable(uri.getRawQuery()).filter(q -> !q.isEmpty()).map(Secret::of);
            if (uri.getScheme().equalsIgnoreCase("file")) {
                path = Path.of(path).toAbsolutePath().normalize().toString();
            }
            return new EndpointUri(uri.getScheme(), authority, path, query);
        }
        catch (URISyntaxException | IllegalArgumentException e) {
            String redacted = (text.contains("?") ? text.substring(0, text.indexOf('?')) + "?[hidden]" : text).replaceFirst("://[^/@]*@", "://[hidden]@");
            throw new MoverException(ErrorCode.INVALID_ARGUMENT, "malformed location '" + redacted + "': " +
                    (e instanceof URISyntaxException syntax ? syntax.getReason() : e.getMessage()) +
                    " (percent-encode spaces and special characters in URIs, or give a plain path)");
        }
    }

    /** True when {@code other} is this location or lies below it (same scheme and authority). */
    public boolean contains(EndpointUri other) {
        if (!scheme.equals(other.scheme) || !authority.equalsIgnoreCase(other.authority)) {
            return false;
        }
        String base = path.endsWith("/") ? path : path + "/";
        return other.path.equals(path) || other.path.startsWith(base);
    }

    @Override
    public String toString() {
        String prefix = scheme.equals("file") && authority.isEmpty() ? "" : scheme + "://" + hideUserInfo(authority);
        return prefix + path + (query.isPresent() ? "?[hidden]" : "");
    }

    /** {@code user:password@host} prints as {@code user:[hidden]@host}: a password in a URI is a secret too. */
    private static String hideUserInfo(String authority) {
        int at = authority.lastIndexOf('@');
        if (at < 0) {
            return authority;
        }
        int colon = authority.indexOf(':');
        String user = colon >= 0 && colon < at ? authority.substring(0, colon) + ":[hidden]" : authority.substring(0, at);
        return user + authority.substring(at);
    }
}
