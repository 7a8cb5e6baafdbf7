package io.mover.plugins.azurefiles;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;

import reactor.core.publisher.Mono;

/**
 * Tells the share of every request that may change it (anything but GET and HEAD), before it is sent: what the
 * share kept of an earlier listing ({@link AzureShare}'s page of the root) is then out of date.
 */
final class Writes implements HttpPipelinePolicy {
    private final Runnable onWrite;

    Writes(Runnable onWrite) {
        this.onWrite = onWrite;
    }

    private void see(HttpPipelineCallContext context) {
        HttpMethod method = context.getHttpRequest().getHttpMethod();
        if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
            onWrite.run();
        }
    }

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        see(context);
        return next.process();
    }

    @Override
    public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
        see(context);
        return next.processSync();
    }
}
