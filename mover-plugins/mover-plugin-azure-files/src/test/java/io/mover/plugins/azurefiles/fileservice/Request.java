package io.mover.plugins.azurefiles.fileservice;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;

/**
 * One request as the operations see it. The double serves path-style URLs, the way the storage emulators do:
 * {@code http://127.0.0.1:PORT/ACCOUNT/SHARE/DIR/FILE?QUERY}.
 * @param share null for service-level requests; {@code path} is "" for the share's root directory
 */
record Request(HttpExchange exchange, String method, String account, String share, String path, String rawPath, String rawQuery,
        Map<String, String> query, boolean secure) {

    static Request parse(HttpExchange exchange) {
        String rawPath = exchange.getRequestURI().getRawPath();
        String[] segments = rawPath.substring(1).split("/", 3);
        String account = decode(segments[0]);
        String share = segments.length > 1 && !segments[1].isEmpty() ? decode(segments[1]) : null;
        String path = segments.length > 2 ? decodePath(segments[2]) : "";
        String rawQuery = exchange.getRequestURI().getRawQuery();
        return new Request(exchange, exchange.getRequestMethod(), account, share, path, rawPath, rawQuery, parseQuery(rawQuery), false);
    }

    static Map<String, String> parseQuery(String rawQuery) {
        Map<String, String> query = new HashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                query.put(decode(eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT), eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return query;
    }

    private static String decodePath(String raw) {
        StringBuilder path = new StringBuilder();
        for (String segment : raw.split("/")) {
            if (segment.isEmpty()) {
                continue;      // the service ignores a trailing slash
            }
            path.append(path.isEmpty() ? "" : "/").append(decode(segment));
        }
        return path.toString();
    }

    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** A header's value; HttpServer reads header bytes as ISO-8859-1, the service as UTF-8 (a rename source may hold any name). */
    String header(String name) {
        List<String> values = exchange.getRequestHeaders().get(name);
        return values == null || values.isEmpty() ? null : utf8(String.join(",", values));
    }

    Map<String, List<String>> headers() {
        Map<String, List<String>> headers = new HashMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, values.stream().map(Request::utf8).toList()));
        return headers;
    }

    private static String utf8(String latin1) {
        return new String(latin1.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    String q(String name) {
        return query.get(name);
    }

    boolean is(String restype, String comp) {
        return java.util.Objects.equals(query.get("restype"), restype) && java.util.Objects.equals(query.get("comp"), comp);
    }
}
