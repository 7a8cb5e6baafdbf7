package io.mover.plugins.azurefiles.fileservice;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import com.azure.storage.common.StorageSharedKeyCredential;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The double's protocol checks, driven by raw HTTP and signed by the SDK's own Shared Key signer (not ours):
 * unauthenticated, badly signed and unversioned requests are refused the way the service refuses them, with its
 * error codes and XML bodies; unknown include options and the IOPS limit too.
 */
@Timeout(60)
final class FileServiceDoubleTest {
    private static final String KEY = Base64.getEncoder().encodeToString("double-test-key-0123456789".getBytes());
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    @TempDir
    static Path scratch;
    private static FileServiceDouble service;

    @BeforeAll
    static void start() throws Exception {
        service = FileServiceDouble.start(scratch).account("acct", KEY).share("acct", "s");
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    private HttpResponse<String> send(String method, String pathAndQuery, String version, boolean sign, String key) throws Exception {
        URI uri = URI.create(service.endpoint("acct") + pathAndQuery);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("x-ms-date", DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)));
        if (version != null) {
            headers.put("x-ms-version", version);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody());
        if (sign) {
            // the SDK signer writes "null" for an absent Content-Length; its pipeline always sets one, so do we (not sent: 0 signs as "")
            Map<String, String> signed = new LinkedHashMap<>(headers);
            signed.put("Content-Length", "0");
            headers.put("Authorization", new StorageSharedKeyCredential("acct", key).generateAuthorizationHeader(uri.toURL(), method, signed));
        }
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aRequestSignedByTheSdkSignerIsAccepted() throws Exception {
        HttpResponse<String> response = send("GET", "/s?restype=directory&comp=list&include=Timestamps,ETag", "2026-02-06", true, KEY);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).startsWith("<?xml").contains("<EnumerationResults").contains("ShareName=\"s\"");
    }

    @Test
    void anUnsignedRequestIsRefusedWithTheServiceErrorBody() throws Exception {
        HttpResponse<String> response = send("GET", "/s?restype=directory&comp=list", "2026-02-06", false, KEY);
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("x-ms-error-code")).contains("NoAuthenticationInformation");
        assertThat(response.body()).contains("<Error><Code>NoAuthenticationInformation</Code><Message>");
    }

    @Test
    void aWrongKeyIsAuthenticationFailed() throws Exception {
        String wrong = Base64.getEncoder().encodeToString("another-key-entirely-000000".getBytes());
        HttpResponse<String> response = send("GET", "/s?restype=directory&comp=list", "2026-02-06", true, wrong);
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.headers().firstValue("x-ms-error-code")).contains("AuthenticationFailed");
    }

    @Test
    void theApiVersionIsRequiredAndChecked() throws Exception {
        assertThat(send("GET", "/s?restype=directory&comp=list", null, true, KEY).headers().firstValue("x-ms-error-code")).contains("MissingRequiredHeader");
        HttpResponse<String> unknown = send("GET", "/s?restype=directory&comp=list", "2099-01-01", true, KEY);
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("<Code>InvalidHeaderValue</Code>").contains("<HeaderName>x-ms-version</HeaderName>");
    }

    @Test
    void anUnknownIncludeOptionAndAMissingShareAreRefused() throws Exception {
        assertThat(send("GET", "/s?restype=directory&comp=list&include=Bogus", "2026-02-06", true, KEY).statusCode()).isEqualTo(400);
        HttpResponse<String> missing = send("GET", "/nosuch?restype=directory&comp=list", "2026-02-06", true, KEY);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.headers().firstValue("x-ms-error-code")).contains("ShareNotFound");
    }

    @Test
    void overTheOperationsLimitTheServiceIsBusy() throws Exception {
        service.faults().operationsPerSecond = 2;
        try {
            int busy = 0;
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> response = send("GET", "/s?restype=directory&comp=list", "2026-02-06", true, KEY);
                if (response.statusCode() == 503) {
                    assertThat(response.body()).contains("<Code>ServerBusy</Code>");
                    busy++;
                }
            }
            assertThat(busy).isGreaterThan(0);
        }
        finally {
            service.faults().operationsPerSecond = 0;
        }
    }
}
