package io.mover.plugins.azurefiles;

import java.net.MalformedURLException;
import java.net.URL;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;

/**
 * Puts the port and path of a configured endpoint back into every request URL. The share SDK may drop a custom
 * port and keeps no path of an endpoint, so an endpoint with a port or a path (a path-routing private endpoint gateway,
 * a path-style test service {@code http://127.0.0.1:PORT/ACCOUNT}) would lose it. Runs per call, before the
 * request is signed, so the Shared Key signature covers the path actually sent.
 */
final class EndpointPath extends HttpPipelineSyncPolicy {
    private static final com.azure.core.http.HttpHeaderName RENAME_SOURCE = com.azure.core.http.HttpHeaderName.fromString("x-ms-file-rename-source");
    private final java.net.URI endpoint;
    private final String prefix;

    EndpointPath(java.net.URI endpoint) {
        this.endpoint = endpoint;
        this.prefix = endpoint.getRawPath() == null ? "" : endpoint.getRawPath().replaceAll("/+$", "");
    }

    @Override
    public HttpPipelinePosition getPipelinePosition() {
        return HttpPipelinePosition.PER_CALL;
    }

    @Override
    protected void beforeSendingRequest(HttpPipelineCallContext context) {
        var request = context.getHttpRequest();
        request.setUrl(withPrefix(request.getUrl()));
        String renameSource = request.getHeaders().getValue(RENAME_SOURCE);
        if (renameSource != null) {
            try {
                request.getHeaders().set(RENAME_SOURCE, withPrefix(java.net.URI.create(renameSource).toURL()).toString());
            }
            catch (MalformedURLException | IllegalArgumentException e) {
                // a relative rename source needs no prefix
            }
        }
    }

    private URL withPrefix(URL url) {
        try {
            return new URL(endpoint.getScheme(), endpoint.getHost(), endpoint.getPort(), prefix + url.getPath() + (url.getQuery() == null ? "" : "?" + url.getQuery()));
        }
        catch (MalformedURLException e) {
            throw new IllegalStateException("cannot rewrite a request URL for endpoint path " + prefix, e);
        }
    }
}
