package io.mover.plugins.azurefiles.fileservice;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Authorizes requests as the File service does: Shared Key (the "Authorize with Shared Key" string to sign:
 * verb, eleven standard headers, canonicalized x-ms- headers, canonicalized resource) and shared access
 * signatures, account SAS ({@code ss}/{@code srt}) and service SAS ({@code sr=s|f}), each with its own
 * string to sign, its time window, its signed protocol, and the permission letters the operation needs.
 */
final class Signatures {
    private static final List<String> STANDARD = List.of("content-encoding", "content-language", "content-length", "content-md5",
            "content-type", "date", "if-modified-since", "if-match", "if-none-match", "if-unmodified-since", "range");
    private static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(15);

    private final Map<String, byte[]> accountKeys;

    Signatures(Map<String, byte[]> accountKeys) {
        this.accountKeys = accountKeys;
    }

    /** Checks the request's credentials for an operation needing one of {@code permissions} (SAS letters). */
    void authorize(Request request, String permissions) {
        String authorization = request.header("authorization");
        if (authorization != null) {
            sharedKey(request, authorization);
        }
        else if (request.query().containsKey("sig")) {
            sas(request.account(), request.share(), request.path(), request.query(), request.secure(), permissions, Instant.now());
        }
        else {
            // anonymous access is never allowed on Azure Files
            throw new ServiceError(401, "NoAuthenticationInformation", "Server failed to authenticate the request. Please refer to the information in the www-authenticate header.");
        }
    }

    private void sharedKey(Request request, String authorization) {
        if (!authorization.startsWith("SharedKey ") || authorization.indexOf(':') < 0) {
            throw authFailed("The authorization header is not in a supported format.");
        }
        String credential = authorization.substring("SharedKey ".length());
        String account = credential.substring(0, credential.indexOf(':'));
        byte[] key = accountKeys.get(account);
        if (key == null || !account.equals(request.account())) {
            throw authFailed("The account in the authorization header does not match the request.");
        }
        String date = request.header("x-ms-date") != null ? request.header("x-ms-date") : request.header("date");
        if (date == null) {
            throw authFailed("Request date header not specified");
        }
        Instant sent = java.time.ZonedDateTime.parse(date, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        if (Duration.between(sent, Instant.now()).abs().compareTo(MAX_CLOCK_SKEW) > 0) {
            throw authFailed("Request date header too old: '" + date + "'");
        }
        // "not the same as any computed signature": the service accepts a query value's comma-separated parts sorted
        // (as the Java SDK signs them) or in the order sent (as the JavaScript SDK does)
        byte[] given = credential.substring(account.length() + 1).getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(hmac(key, stringToSign(request, true)).getBytes(StandardCharsets.UTF_8), given)
                && !MessageDigest.isEqual(hmac(key, stringToSign(request, false)).getBytes(StandardCharsets.UTF_8), given)) {
            throw authFailed("The MAC signature found in the HTTP request '" + credential.substring(account.length() + 1)
                    + "' is not the same as any computed signature.");
        }
    }

    static String stringToSign(Request request, boolean sortValues) {
        StringBuilder text = new StringBuilder(request.method()).append('\n');
        for (String name : STANDARD) {
            String value = request.header(name);
            if (value == null || name.equals("content-length") && value.equals("0") || name.equals("date") && request.header("x-ms-date") != null) {
                value = "";
            }
            text.append(value).append('\n');
        }
        TreeMap<String, String> msHeaders = new TreeMap<>();
        request.headers().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.startsWith("x-ms-")) {
                msHeaders.put(lower, String.join(",", values).trim());
            }
        });
        msHeaders.forEach((name, value) -> text.append(name).append(':').append(value).append('\n'));
        text.append('/').append(request.account()).append(request.rawPath().isEmpty() ? "/" : request.rawPath());
        TreeMap<String, List<String>> query = new TreeMap<>();
        if (request.rawQuery() != null) {
            for (String pair : request.rawQuery().split("&")) {
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT);
                List<String> values = query.computeIfAbsent(name, k -> new ArrayList<>());
                for (String value : (eq < 0 ? "" : pair.substring(eq + 1)).split(",")) {
                    values.add(decode(value));
                }
            }
        }
        query.forEach((name, values) -> text.append('\n').append(name).append(':').append(String.join(",", sortValues ? values.stream().sorted().toList() : values)));
        return text.toString();
    }

    /** Validates a SAS for {@code share}/{@code path} of {@code account}; used for requests and for copy sources. */
    void sas(String account, String share, String path, Map<String, String> q, boolean secure, String permissions, Instant now) {
        byte[] key = accountKeys.get(account);
        String version = q.getOrDefault("sv", "");
        if (key == null || !ApiVersions.known(version)) {
            throw authFailed(key == null ? "Signature did not match." : "Signed version '" + version + "' is not supported.");
        }
        String start = q.getOrDefault("st", "");
        String expiry = q.getOrDefault("se", "");
        String protocol = q.getOrDefault("spr", "");
        String granted = q.getOrDefault("sp", "");
        String text;
        if (q.containsKey("ss")) {
            if (!q.get("ss").contains("f")) {
                throw new ServiceError(403, "AuthorizationServiceMismatch", "This request is not authorized to perform this operation using this service.");
            }
            String types = q.getOrDefault("srt", "");
            if (!(types.contains("o") || path.isEmpty() && types.contains("c"))) {
                throw new ServiceError(403, "AuthorizationResourceTypeMismatch", "This request is not authorized to perform this operation using this resource type.");
            }
            text = String.join("\n", account, granted, q.get("ss"), types, start, expiry, q.getOrDefault("sip", ""), protocol, version,
                    version.compareTo("2020-10-02") > 0 ? q.getOrDefault("ses", "") : null, "");
            text = text.replace("\nnull\n", "\n");
        }
        else {
            String resource = q.getOrDefault("sr", "");
            String signedPath = resource.equals("f") ? path : "";
            if (resource.equals("f") && !signedPath.equalsIgnoreCase(path) || !resource.equals("f") && !resource.equals("s")) {
                throw authFailed("Signature did not match.");
            }
            String canonical = "/file/" + account + "/" + share + (resource.equals("f") ? "/" + path : "");
            text = String.join("\n", granted, start, expiry, canonical, q.getOrDefault("si", ""), q.getOrDefault("sip", ""), protocol, version,
                    q.getOrDefault("rscc", ""), q.getOrDefault("rscd", ""), q.getOrDefault("rsce", ""), q.getOrDefault("rscl", ""), q.getOrDefault("rsct", ""));
        }
        String signature = hmac(key, text);
        if (!MessageDigest.isEqual(signature.getBytes(StandardCharsets.UTF_8), q.getOrDefault("sig", "").getBytes(StandardCharsets.UTF_8))) {
            throw authFailed("Signature did not match. String to sign used was " + text);
        }
        if (!expiry.isEmpty() && now.isAfter(Instant.parse(expiry)) || !start.isEmpty() && now.isBefore(Instant.parse(start))) {
            throw authFailed("Signature not valid in the specified time frame: Start [" + start + "] - Expiry [" + expiry + "] - Current [" + now + "]");
        }
        if (protocol.equals("https") && !secure) {
            throw new ServiceError(403, "AuthorizationProtocolMismatch", "This request is not authorized to perform this operation using this protocol.");
        }
        if (permissions.chars().noneMatch(letter -> granted.indexOf(letter) >= 0)) {
            throw new ServiceError(403, "AuthorizationPermissionMismatch", "This request is not authorized to perform this operation using this permission.");
        }
    }

    static String hmac(byte[] key, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    private static ServiceError authFailed(String detail) {
        return new ServiceError(403, "AuthenticationFailed",
                "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.", detail);
    }
}
